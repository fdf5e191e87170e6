"""DQN with a prioritized replay buffer on a small chain MDP."""
import random

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
np.random.seed(0)


class ChainEnv:
    def __init__(self, n=5):
        self.n = n

    def reset(self):
        self.s = 0
        return np.eye(self.n, dtype=np.float32)[self.s]

    def step(self, a):
        self.s = min(self.s + 1, self.n - 1) if a == 1 else max(self.s - 1, 0)
        done = self.s == self.n - 1
        return np.eye(self.n, dtype=np.float32)[self.s], float(done), done


class PrioritizedReplay:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = []
        self.priorities = torch.zeros(capacity)
        self.pos = 0

    def push(self, *transition):
        if len(self.data) < self.capacity:
            self.data.append(transition)
        else:
            self.data[self.pos] = transition
        self.priorities[self.pos] = self.priorities.max().item() if self.data[1:] else 1.0
        self.pos = (self.pos + 1) % self.capacity

    def sample(self, k):
        p = self.priorities[:len(self.data)] + 1e-3
        idx = torch.multinomial(p / p.sum(), k, replacement=True)
        batch = [self.data[i] for i in idx.tolist()]
        s, a, r, s2, d = zip(*batch)
        return idx, torch.tensor(np.stack(s)), torch.tensor(a), torch.tensor(r), torch.tensor(np.stack(s2)), torch.tensor(d, dtype=torch.float32)

    def update_priorities(self, idx, td):
        self.priorities[idx] = td.abs().squeeze(-1) if td.dim() > 1 else td.abs()


def run(buffer, tag, detach_td):
    env = ChainEnv()
    q_net = nn.Sequential(nn.Linear(5, 24), nn.ReLU(), nn.Linear(24, 2))
    target = nn.Sequential(nn.Linear(5, 24), nn.ReLU(), nn.Linear(24, 2))
    target.load_state_dict(q_net.state_dict())
    opt = torch.optim.Adam(q_net.parameters(), lr=1e-2)
    q_log = []
    s = env.reset()
    for t in range(30):
        q = q_net(torch.from_numpy(s))
        a = q.argmax().item() if random.random() > 0.3 else random.randrange(2)
        s2, r, done = env.step(a)
        buffer.push(s, a, r, s2, done)  # ok
        q_log.append(q.max().item())  # ok
        s = env.reset() if done else s2
        if len(buffer.data) >= 8:
            idx, bs, ba, br, bs2, bd = buffer.sample(8)
            q_sa = q_net(bs).gather(1, ba.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                y = br + 0.9 * (1 - bd) * target(bs2).max(1).values
            td = q_sa - y
            loss = (td ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if detach_td:
                buffer.update_priorities(idx, td.detach())  # ok
            else:
                buffer.update_priorities(idx, td)  # expect: TEN501
        if t % 10 == 0:
            target.load_state_dict(q_net.state_dict())  # ok
    print(tag, float(buffer.priorities.sum()), buffer.priorities.requires_grad, q_log[-1])


run(PrioritizedReplay(64), "run-a", detach_td=False)
run(PrioritizedReplay(64), "run-b", detach_td=True)
