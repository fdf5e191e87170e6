import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

from . import stats
from .buffers import ReplayBuffer


class ActorCriticAgent:
    def __init__(self, obs_dim=4, n_actions=2):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))
        params = list(self.actor.parameters()) + list(self.critic.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-3)
        self.buffer = ReplayBuffer(32)

    @torch.no_grad()
    def act(self, obs):
        return Categorical(logits=self.actor(obs)).sample()

    def observe(self, obs, action, reward):
        self.buffer.add(obs, action, reward)

    def update(self, batch_size=8):
        obs, act, rew = self.buffer.sample(batch_size)
        dist = Categorical(logits=self.actor(obs))
        value = self.critic(obs).squeeze(1)
        adv = rew - value
        policy_loss = -(dist.log_prob(act) * adv.detach()).mean()
        value_loss = adv.pow(2).mean()
        entropy = dist.entropy().mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        stats.record("value_loss", value_loss)  # expect: TEN501
        stats.record("policy_loss", policy_loss.item())  # ok
        stats.running_mean("entropy", entropy)  # expect: TEN501
        stats.running_mean("value_mean", value.mean().detach())  # ok
        return loss
