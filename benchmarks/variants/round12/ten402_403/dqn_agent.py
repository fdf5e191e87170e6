import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_actions)

    def forward(self, x):
        return self.head(self.body(x))


class DQNAgent:
    """DQN where the target network is a parameter dict evaluated with
    functional_call instead of a second module instance."""

    def __init__(self, obs_dim, n_actions, gamma=0.99, lr=2.5e-4, sync_every=1000):
        self.q = QNet(obs_dim, n_actions)
        self.n_actions = n_actions
        self.target_params = self.q.state_dict()  # expect: TEN402
        self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.gamma = gamma
        self.sync_every = sync_every
        self.updates = 0
        self.replay = deque(maxlen=100_000)

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q(torch.as_tensor(obs).float().unsqueeze(0)).argmax())

    def sync_target(self):
        self.target_params = {k: v.detach().clone() for k, v in self.q.state_dict().items()}  # ok

    def learn(self, batch_size=32):
        if len(self.replay) < batch_size:
            return None
        obs, act, rew, nxt, done = map(torch.as_tensor, zip(*random.sample(self.replay, batch_size)))
        obs, nxt = obs.float(), nxt.float()
        with torch.no_grad():
            next_q = functional_call(self.q, self.target_params, (nxt,)).max(1).values
            target = rew.float() + self.gamma * (1 - done.float()) * next_q
        q = self.q(obs).gather(1, act.long().unsqueeze(1)).squeeze(1)
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.q.parameters(), 10.0)
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.sync_target()
        return loss.item()

    def save(self, path):
        torch.save(self.q.state_dict(), path)  # ok
