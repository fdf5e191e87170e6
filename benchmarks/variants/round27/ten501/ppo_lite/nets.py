import torch
import torch.nn as nn
from torch.distributions import Normal


class GaussianActorCritic(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, act_dim))
        self.log_std = nn.Parameter(-0.5 * torch.ones(act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))

    def dist(self, obs):
        return Normal(self.mu(obs), self.log_std.exp())

    def value(self, obs):
        return self.v(obs).squeeze(-1)
