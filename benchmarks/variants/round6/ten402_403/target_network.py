"""DQN agent with a hard-updated or Polyak-averaged target network.

Look-alike negatives only: target <- online copies go through
load_state_dict / deepcopy, and live parameter lists are read immediately.
"""
import copy
import random

import torch
from torch import nn


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.body(obs)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.99, lr=1e-3, tau=None, target_every=10):
        self.online = QNet(obs_dim, n_actions)
        self.target = copy.deepcopy(self.online)  # ok
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr)
        self.gamma = gamma
        self.tau = tau
        self.target_every = target_every
        self.updates = 0
        self.n_actions = n_actions

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.online(obs.unsqueeze(0)).argmax())

    @torch.no_grad()
    def soft_update(self):
        online_params = [p.data for p in self.online.parameters()]  # ok
        for tp, op in zip(self.target.parameters(), online_params):
            tp.mul_(1.0 - self.tau).add_(op, alpha=self.tau)

    def hard_update(self):
        self.target.load_state_dict(self.online.state_dict())  # ok

    def learn(self, batch):
        obs, act, rew, nxt, done = batch
        q = self.online(obs).gather(1, act.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = rew + self.gamma * (1 - done) * self.target(nxt).max(1).values
        loss = nn.functional.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.tau is not None:
            self.soft_update()
        elif self.updates % self.target_every == 0:
            self.hard_update()
        return loss.item()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    for tau in (None, 0.01):
        agent = DQNAgent(4, 2, tau=tau)
        for _ in range(25):
            b = (torch.randn(8, 4), torch.randint(0, 2, (8,)), torch.randn(8),
                 torch.randn(8, 4), torch.zeros(8))
            agent.learn(b)
        print("tau", tau, "action", agent.act(torch.randn(4), eps=0.0))
