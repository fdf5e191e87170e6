"""Soft/hard target-network updates for an actor-critic agent (no bugs here)."""
import copy

import torch
import torch.nn as nn


def mlp(i, o, h=256):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, o))


class TD3Nets:
    def __init__(self, obs_dim, act_dim):
        self.actor = mlp(obs_dim, act_dim)
        self.critic1 = mlp(obs_dim + act_dim, 1)
        self.critic2 = mlp(obs_dim + act_dim, 1)
        self.actor_t = copy.deepcopy(self.actor)  # ok
        self.critic1_t = mlp(obs_dim + act_dim, 1)
        self.critic2_t = mlp(obs_dim + act_dim, 1)
        self.critic1_t.load_state_dict(self.critic1.state_dict())  # ok
        self.critic2_t.load_state_dict(self.critic2.state_dict())  # ok
        for net in (self.actor_t, self.critic1_t, self.critic2_t):
            net.requires_grad_(False)

    @torch.no_grad()
    def soft_update(self, tau=0.005):
        pairs = ((self.actor, self.actor_t), (self.critic1, self.critic1_t),
                 (self.critic2, self.critic2_t))
        for src, dst in pairs:
            for p, tp in zip(src.parameters(), dst.parameters()):
                tp.mul_(1 - tau).add_(p, alpha=tau)

    def hard_update(self):
        self.actor_t.load_state_dict(self.actor.state_dict())
        self.critic1_t.load_state_dict(self.critic1.state_dict())
        self.critic2_t.load_state_dict(self.critic2.state_dict())

    def checkpoint(self):
        return {
            "actor": copy.deepcopy(self.actor.state_dict()),  # ok
            "critic1": {k: v.clone() for k, v in self.critic1.state_dict().items()},  # ok
            "critic2": {k: v.clone() for k, v in self.critic2.state_dict().items()},
        }

    def restore(self, ckpt):
        self.actor.load_state_dict(ckpt["actor"])
        self.critic1.load_state_dict(ckpt["critic1"])
        self.critic2.load_state_dict(ckpt["critic2"])
        self.hard_update()


def param_change(nets: TD3Nets, fn):
    before = [p.detach().clone() for p in nets.actor.parameters()]  # ok
    fn()
    return sum((p.detach() - b).abs().sum().item()
               for p, b in zip(nets.actor.parameters(), before))


def export_actor(nets: TD3Nets, path):
    sd = nets.actor.state_dict()  # ok
    torch.save({k.replace("0.", "in."): v for k, v in sd.items()}, path)
