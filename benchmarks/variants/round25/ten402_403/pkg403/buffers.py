"""Replay window of recent observations for a batch of agents."""
import torch


class ReplayWindow:
    def __init__(self, n, length, dim):
        self.data = torch.zeros(n, length, dim)
        self.count = 0

    def push(self, x):
        self.data[:, 1:] = self.data[:, :-1]  # expect: TEN403
        self.data[:, 0] = x  # ok
        self.count += 1

    def push_safe(self, x):
        self.data[:, 1:] = self.data[:, :-1].clone()  # ok
        self.data[:, 0] = x  # ok
        self.count += 1

    def latest(self, k):
        return self.data[:, :k]
