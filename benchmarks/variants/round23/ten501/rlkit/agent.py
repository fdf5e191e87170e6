import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.pi = nn.Linear(16, n_actions)
        self.v = nn.Linear(16, 1)

    def act(self, obs):
        h = self.body(obs)
        dist = Categorical(logits=self.pi(h))
        action = dist.sample()
        return action, dist.log_prob(action), self.v(h).squeeze(-1), dist.entropy()
