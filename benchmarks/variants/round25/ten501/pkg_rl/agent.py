import torch
import torch.nn as nn


class Agent(nn.Module):
    def __init__(self, obs=4, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)

    def act(self, obs):
        h = self.body(obs)
        dist = torch.distributions.Categorical(logits=self.pi(h))
        a = dist.sample()
        return a, dist.log_prob(a), self.v(h).squeeze(-1)
