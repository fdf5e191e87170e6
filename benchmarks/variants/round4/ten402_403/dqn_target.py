"""Double DQN update with a periodically synchronised target network."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.head(self.body(obs))


class Agent:
    def __init__(self, obs_dim, n_actions, gamma=0.99, sync_every=100, lr=5e-4):
        self.online = QNet(obs_dim, n_actions)
        self.target = QNet(obs_dim, n_actions)
        self.target.load_state_dict(self.online.state_dict())  # ok: load_state_dict copies
        self.target.requires_grad_(False)
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr)
        self.gamma = gamma
        self.sync_every = sync_every
        self.updates = 0
        self.n_actions = n_actions
        self.memory = deque(maxlen=10_000)

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return self.online(obs.unsqueeze(0)).argmax(-1).item()

    def learn(self, batch_size=32):
        if len(self.memory) < batch_size:
            return None
        o, a, r, o2, d = map(torch.stack, zip(*random.sample(self.memory, batch_size)))
        q = self.online(o).gather(1, a.long().unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            best_next = self.online(o2).argmax(-1, keepdim=True)
            target_q = self.target(o2).gather(1, best_next).squeeze(1)
            y = r + self.gamma * (1.0 - d) * target_q
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.target.load_state_dict(self.online.state_dict())  # ok
        return loss.item()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    agent = Agent(obs_dim=4, n_actions=2, sync_every=10)
    obs = torch.randn(4)
    for t in range(120):
        a = agent.act(obs, eps=0.2)
        nxt = obs + 0.1 * torch.randn(4)
        agent.memory.append((obs, torch.tensor(a), torch.tensor(float(a)), nxt, torch.tensor(0.0)))
        agent.learn(16)
        obs = nxt
    with torch.no_grad():
        diff = sum((p - q).abs().sum() for p, q in zip(agent.online.parameters(), agent.target.parameters()))
    print(agent.updates, float(diff))
