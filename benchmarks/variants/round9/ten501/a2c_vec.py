"""Synchronous advantage actor-critic (A2C) with n-step returns."""
from collections import defaultdict
from types import SimpleNamespace

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                    nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.shared(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def n_step_returns(next_value, rewards, masks, gamma):
    R = next_value
    returns = []
    for r, m in zip(reversed(rewards), reversed(masks)):
        R = r + gamma * R * m
        returns.insert(0, R)
    return returns


def train(cfg):
    envs = gym.vector.make(cfg.env_id, num_envs=cfg.num_envs)
    device = torch.device(cfg.device)
    model = ActorCritic(envs.single_observation_space.shape[0], envs.single_action_space.n).to(device)
    opt = torch.optim.RMSprop(model.parameters(), lr=cfg.lr, alpha=0.99, eps=1e-5)
    stats = defaultdict(list)

    obs, _ = envs.reset(seed=cfg.seed)
    ep_returns = np.zeros(cfg.num_envs)
    finished = []
    for update in range(cfg.num_updates):
        log_probs, values, rewards, masks, entropies = [], [], [], [], []
        for _ in range(cfg.n_steps):
            logits, value = model(torch.as_tensor(obs, dtype=torch.float32, device=device))
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward, term, trunc, _ = envs.step(action.cpu().numpy())
            done = np.logical_or(term, trunc)

            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy().mean())  # ok
            rewards.append(torch.as_tensor(reward, dtype=torch.float32, device=device))
            masks.append(torch.as_tensor(1.0 - done, dtype=torch.float32, device=device))

            ep_returns += reward
            for i in np.flatnonzero(done):
                finished.append(ep_returns[i])
                ep_returns[i] = 0.0

        with torch.no_grad():
            _, next_value = model(torch.as_tensor(obs, dtype=torch.float32, device=device))
        returns = torch.stack(n_step_returns(next_value, rewards, masks, cfg.gamma))
        log_probs = torch.stack(log_probs)
        values = torch.stack(values)

        advantages = returns - values
        actor_loss = -(log_probs * advantages.detach()).mean()
        critic_loss = advantages.pow(2).mean()
        entropy = torch.stack(entropies).mean()
        loss = actor_loss + cfg.value_coef * critic_loss - cfg.ent_coef * entropy

        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
        opt.step()

        stats["actor_loss"].append(actor_loss.item())  # ok
        stats["critic_loss"].append(critic_loss.item())
        stats["entropy"].append(entropy)  # expect: TEN501

        if update % cfg.log_every == 0 and finished:
            print(f"update {update:6d} | return {np.mean(finished[-50:]):7.1f} "
                  f"| entropy {float(stats['entropy'][-1]):.3f}")
    envs.close()
    return model, stats


if __name__ == "__main__":
    train(SimpleNamespace(env_id="LunarLander-v2", num_envs=16, n_steps=5, num_updates=200_000,
                          lr=7e-4, gamma=0.99, value_coef=0.5, ent_coef=0.01,
                          max_grad_norm=0.5, log_every=1000, seed=0, device="cpu"))
