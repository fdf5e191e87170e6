import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from .replay import ReplayBuffer, Transition


class DQNAgent:
    def __init__(self, n_obs, n_act, store_scalar_q, gamma=0.9, eps=0.3):
        self.q = nn.Sequential(nn.Linear(n_obs, 24), nn.ReLU(), nn.Linear(24, n_act))
        self.target = nn.Sequential(nn.Linear(n_obs, 24), nn.ReLU(), nn.Linear(24, n_act))
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-2)
        self.replay = ReplayBuffer(200)
        self.store_scalar_q = store_scalar_q
        self.gamma, self.eps, self.n_act = gamma, eps, n_act
        self.td_errors = []
        self.loss_trace = []

    def act(self, state):
        q_values = self.q(state)
        if random.random() < self.eps:
            a = random.randrange(self.n_act)
        else:
            a = int(q_values.argmax())
        return a, q_values[a]

    def observe(self, s, a, r, s2, done, q_sa):
        if self.store_scalar_q:
            self.replay.push(s, a, r, s2, done, q_sa.item())  # ok
        else:
            self.replay.push(s, a, r, s2, done, q_sa)  # expect: TEN501

    def learn(self, batch_size=16):
        if len(self.replay) < batch_size:
            return None
        batch = Transition(*zip(*self.replay.sample(batch_size)))
        s = torch.stack(batch.state)
        s2 = torch.stack(batch.next_state)
        a = torch.tensor(batch.action)
        r = torch.tensor(batch.reward)
        done = torch.tensor(batch.done, dtype=torch.float32)
        q = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - done) * self.target(s2).max(1).values
        td = target - q
        self.td_errors.append(td.abs().mean())  # expect: TEN501
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.loss_trace.append(loss.item())  # ok
        return loss.item()

    def sync(self):
        self.target.load_state_dict(self.q.state_dict())
