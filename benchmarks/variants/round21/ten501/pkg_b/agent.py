"""DQN agent with a target network and prioritized replay."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from .buffer import PriorityReplayBuffer


class QNet(nn.Module):
    def __init__(self, n_obs, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 48), nn.ReLU(), nn.Linear(48, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, n_obs, n_actions, gamma=0.95, lr=1e-3, tau=0.05, batch_size=32, seed=0):
        self.q = QNet(n_obs, n_actions)
        self.target = QNet(n_obs, n_actions)
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.buffer = PriorityReplayBuffer(1000, seed)
        self.gamma, self.tau, self.batch_size = gamma, tau, batch_size
        self.n_actions = n_actions
        self.rng = random.Random(seed)
        self.epsilon = 0.3
        self.loss_history = []

    def act(self, obs):
        q_values = self.q(obs)
        if self.rng.random() < self.epsilon:
            return self.rng.randrange(self.n_actions), q_values
        return int(q_values.argmax()), q_values

    def learn(self):
        if len(self.buffer) < self.batch_size:
            return None
        idx = self.buffer.sample_indices(self.batch_size)
        items = [self.buffer.storage[i] for i in idx.tolist()]
        obs, actions, rewards, next_obs, dones = zip(*items)
        obs, next_obs = torch.stack(obs), torch.stack(next_obs)
        actions = torch.tensor(actions)
        rewards = torch.tensor(rewards, dtype=torch.float32)
        dones = torch.tensor(dones, dtype=torch.float32)
        q_sa = self.q(obs).gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            target = rewards + self.gamma * (1 - dones) * self.target(next_obs).max(1).values
        td = target - q_sa
        loss = F.smooth_l1_loss(q_sa, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.buffer.update_priorities(idx, td.detach().abs() + 1e-3)  # ok
        for tp, p in zip(self.target.parameters(), self.q.parameters()):
            tp.data.mul_(1 - self.tau).add_(self.tau * p.data)  # ok
        self.loss_history.append(loss.item())  # ok
        return {"loss": loss.item(), "td_error": td.abs().mean(), "q_mean": q_sa.mean()}
