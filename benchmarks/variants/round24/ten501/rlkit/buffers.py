import random

import torch


class ReplayBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.storage = []

    def add(self, obs, action, reward):
        if len(self.storage) >= self.capacity:
            self.storage.pop(0)
        self.storage.append((obs, action, reward))

    def sample(self, n):
        batch = random.sample(self.storage, n)
        obs, act, rew = zip(*batch)
        return torch.stack(obs), torch.stack(act), torch.stack(rew)

    def __len__(self):
        return len(self.storage)
