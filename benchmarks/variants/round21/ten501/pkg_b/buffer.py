"""Replay buffers."""
import random
from collections import deque

import torch


class ReplayBuffer:
    def __init__(self, capacity, seed=0):
        self.storage = deque(maxlen=capacity)
        self.rng = random.Random(seed)

    def push(self, obs, action, reward, next_obs, done):
        self.storage.append((obs, action, reward, next_obs, done))  # ok

    def sample(self, batch_size):
        batch = self.rng.sample(list(self.storage), batch_size)
        obs, actions, rewards, next_obs, dones = zip(*batch)
        return (torch.stack(obs), torch.tensor(actions), torch.tensor(rewards, dtype=torch.float32),
                torch.stack(next_obs), torch.tensor(dones, dtype=torch.float32))

    def __len__(self):
        return len(self.storage)


class PriorityReplayBuffer(ReplayBuffer):
    def __init__(self, capacity, seed=0):
        super().__init__(capacity, seed)
        self.priorities = deque(maxlen=capacity)

    def push(self, *transition, priority=1.0):
        super().push(*transition)
        self.priorities.append(priority)

    def sample_indices(self, batch_size):
        weights = torch.tensor([float(p) for p in self.priorities])
        return torch.multinomial(weights, batch_size, replacement=True)

    def update_priorities(self, indices, priorities):
        for i, p in zip(indices.tolist(), priorities):
            self.priorities[i] = p  # ok
