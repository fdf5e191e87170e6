"""Bounded loss windows for progress bars and spike detection (judgement calls)."""
from collections import deque

import torch
import torch.nn as nn


class SpikeDetector:
    def __init__(self, window=4, factor=3.0):
        self.recent = deque(maxlen=window)
        self.factor = factor
        self.last_batch = None
        self.spikes = 0

    def check(self, loss):
        is_spike = len(self.recent) == self.recent.maxlen and loss > self.factor * torch.stack(list(self.recent)).mean()
        self.spikes += int(is_spike)
        return is_spike


def train(model, steps=12):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    detector = SpikeDetector()
    scalar_window = deque(maxlen=10)
    last_losses = []
    samples = []
    for step in range(steps):
        x = torch.randn(8, 3)
        out = model(x)
        loss = (out - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        detector.check(loss.detach())
        detector.recent.append(loss)  # either
        detector.last_batch = {"loss": loss, "out": out}  # either
        last_losses = (last_losses + [loss])[-3:]  # either
        scalar_window.append(loss.item())  # ok
        if step % 4 == 0:
            samples.append(out[:2].detach().clone())  # ok
        avg = sum(scalar_window) / len(scalar_window)
    return avg, detector.spikes, len(samples)


if __name__ == "__main__":
    torch.manual_seed(0)
    print(train(nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))))
