"""Double DQN with prioritized replay; TD errors and priorities are stored detached."""
import random

import numpy as np
import torch
import torch.nn as nn


class PrioritizedBuffer:
    def __init__(self, capacity=64, alpha=0.6):
        self.capacity, self.alpha = capacity, alpha
        self.data, self.priorities = [], np.zeros(capacity, dtype=np.float32)
        self.pos = 0

    def push(self, transition):
        max_prio = self.priorities.max() if self.data else 1.0
        if len(self.data) < self.capacity:
            self.data.append(transition)
        else:
            self.data[self.pos] = transition
        self.priorities[self.pos] = max_prio
        self.pos = (self.pos + 1) % self.capacity

    def sample(self, n):
        p = self.priorities[: len(self.data)] ** self.alpha
        idx = np.random.choice(len(self.data), n, p=p / p.sum())
        return idx, [self.data[i] for i in idx]

    def update_priorities(self, idx, prios):
        for i, pr in zip(idx, prios):
            self.priorities[i] = pr


def train(steps=10, batch=8, gamma=0.9):
    online = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
    target = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
    target.load_state_dict(online.state_dict())
    opt = torch.optim.Adam(online.parameters(), lr=1e-3)
    buf = PrioritizedBuffer()
    td_history, epsilons, mean_q = [], [], []
    eps = 1.0
    for step in range(steps):
        s = torch.randn(3)
        with torch.no_grad():
            a = random.randrange(2) if random.random() < eps else online(s).argmax().item()
        buf.push((s, a, float(a == (s[0] > 0)), torch.randn(3)))  # ok
        eps = max(0.05, eps * 0.9)
        epsilons.append(eps)  # ok
        if len(buf.data) < batch:
            continue
        idx, items = buf.sample(batch)
        S = torch.stack([t[0] for t in items]); A = torch.tensor([t[1] for t in items])
        R = torch.tensor([t[2] for t in items]); S2 = torch.stack([t[3] for t in items])
        q = online(S).gather(1, A[:, None]).squeeze(1)
        with torch.no_grad():
            best = online(S2).argmax(1, keepdim=True)
            y = R + gamma * target(S2).gather(1, best).squeeze(1)
            mean_q.append(target(S2).max(1).values.mean())  # ok
        td = y - q
        loss = td.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        td_history.append(td.detach().abs())  # ok
        buf.update_priorities(idx, td.detach().abs().numpy() + 1e-5)  # ok
    return td_history, epsilons, mean_q


if __name__ == "__main__":
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    td, eps, mq = train()
    print(len(td), round(eps[-1], 3), float(mq[-1]))
