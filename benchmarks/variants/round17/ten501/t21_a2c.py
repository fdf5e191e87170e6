"""Advantage actor-critic with n-step rollouts on a toy bandit-walk env."""
import random
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


class GridWalk:
    def __init__(self, size=4):
        self.size = size
        self.reset()

    def reset(self):
        self.x, self.y = 0, 0
        return self.obs()

    def obs(self):
        return torch.tensor([self.x / self.size, self.y / self.size, 1.0])

    def step(self, a):
        dx, dy = [(1, 0), (0, 1), (-1, 0), (0, -1)][a]
        self.x = min(max(self.x + dx, 0), self.size - 1)
        self.y = min(max(self.y + dy, 0), self.size - 1)
        goal = self.x == self.size - 1 and self.y == self.size - 1
        r = 1.0 if goal else -0.01
        if goal:
            self.reset()
        return self.obs(), r, goal


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 32), nn.ReLU())
        self.pi = nn.Linear(32, 4)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


class A2CAgent:
    def __init__(self, env, n_steps=5, gamma=0.9):
        self.env, self.n_steps, self.gamma = env, n_steps, gamma
        self.net = ActorCritic()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=3e-3)
        self.diag = defaultdict(list)
        self.obs = env.reset()

    def rollout(self):
        log_probs, values, rewards, entropies = [], [], [], []
        for _ in range(self.n_steps):
            logits, value = self.net(self.obs)
            dist = torch.distributions.Categorical(logits=logits)
            a = dist.sample()
            self.obs, r, done = self.env.step(a.item())
            log_probs.append(dist.log_prob(a))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(r)  # ok
        with torch.no_grad():
            _, bootstrap = self.net(self.obs)
        return log_probs, values, rewards, entropies, bootstrap

    def update(self):
        log_probs, values, rewards, entropies, R = self.rollout()
        returns = []
        for r in reversed(rewards):
            R = r + self.gamma * R
            returns.append(R)  # ok
        returns = torch.stack(returns[::-1])
        values = torch.stack(values)
        adv = returns - values
        actor = -(torch.stack(log_probs) * adv.detach()).mean()
        critic = F.mse_loss(values, returns)
        ent = torch.stack(entropies).mean()
        loss = actor + 0.5 * critic - 0.01 * ent
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.diag["value"].append(values.mean())  # expect: TEN501
        self.diag["adv"].append(adv.mean().item())  # ok
        self.diag["entropy"].append(ent.detach())  # ok


agent = A2CAgent(GridWalk())
for update in range(10):
    agent.update()
print({k: len(v) for k, v in agent.diag.items()}, agent.diag["adv"][-1])
