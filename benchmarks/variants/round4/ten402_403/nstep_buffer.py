"""N-step return accumulator feeding a uniform replay memory (DQN-style)."""
import random

import torch


class ReplayMemory:
    def __init__(self, capacity, obs_dim):
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.returns = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.ptr = 0
        self.size = 0

    def add(self, o, a, g, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.returns[i] = o, a, g
        self.next_obs[i], self.dones[i] = o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = torch.tensor(random.sample(range(self.size), batch_size))
        return self.obs[idx], self.actions[idx], self.returns[idx], self.next_obs[idx], self.dones[idx]


class NStepAccumulator:
    def __init__(self, n, gamma, obs_dim, memory):
        self.n = n
        self.gamma = gamma
        self.memory = memory
        self.obs = torch.zeros(n, obs_dim)
        self.actions = torch.zeros(n, dtype=torch.long)
        self.rewards = torch.zeros(n)
        self.count = 0
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32)

    def push(self, o, a, r, o2, done):
        if self.count == self.n:
            self.obs.narrow(0, 0, self.n - 1).copy_(self.obs.narrow(0, 1, self.n - 1))  # expect: TEN403
            self.actions = torch.roll(self.actions, -1)  # ok
            self.rewards = torch.cat([self.rewards[1:], self.rewards[:1]])  # ok
            self.count -= 1
        self.obs[self.count] = o
        self.actions[self.count] = a
        self.rewards[self.count] = r
        self.count += 1
        if self.count == self.n:
            g = (self.rewards * self.discounts).sum().item()
            self.memory.add(self.obs[0], self.actions[0], g, o2, float(done))
        if done:
            self.count = 0


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    mem = ReplayMemory(100, obs_dim=3)
    acc = NStepAccumulator(3, 0.99, 3, mem)
    o = torch.randn(3)
    for t in range(12):
        o2 = torch.randn(3)
        acc.push(o, t % 2, 1.0, o2, done=(t == 11))
        o = o2
    print(mem.size, mem.sample(4)[2])
