"""DQN whose target network is kept as a parameter dict and evaluated with functional_call."""
import random
from collections import deque

import torch
import torch.nn as nn
from torch.func import functional_call


class QNet(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, obs):
        return self.net(obs)


class Agent:
    def __init__(self, gamma=0.99, sync_every=500):
        self.q = QNet()
        self.q_target = QNet()
        self.q_target.load_state_dict(self.q.state_dict())  # ok
        self.frozen = self.q.state_dict()  # expect: TEN402
        self.opt = torch.optim.Adam(self.q.parameters(), lr=5e-4)
        self.gamma = gamma
        self.sync_every = sync_every
        self.replay = deque(maxlen=50_000)
        self.updates = 0

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(4)
        with torch.no_grad():
            return int(self.q(obs.unsqueeze(0)).argmax())

    def learn(self, batch_size=64):
        if len(self.replay) < batch_size:
            return None
        obs, act, rew, nxt, done = map(torch.stack, zip(*random.sample(self.replay, batch_size)))
        with torch.no_grad():
            next_q = functional_call(self.q, self.frozen, (nxt,)).max(1).values
            target = rew + self.gamma * (1 - done) * next_q
        pred = self.q(obs).gather(1, act.long().unsqueeze(1)).squeeze(1)
        loss = nn.functional.smooth_l1_loss(pred, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.frozen = {k: v.clone() for k, v in self.q.state_dict().items()}  # ok
            self.q_target.load_state_dict(self.q.state_dict())  # ok
        return loss.item()


if __name__ == "__main__":
    agent = Agent()
    for t in range(2000):
        o = torch.randn(8)
        a = agent.act(o, eps=0.1)
        agent.replay.append((o, torch.tensor(float(a)), torch.randn(()), torch.randn(8), torch.tensor(0.0)))
        agent.learn()
