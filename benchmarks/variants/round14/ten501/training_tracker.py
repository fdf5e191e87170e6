"""Regression training with a TrainingTracker object that summarises progress."""
from collections import deque
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainingTracker:
    window: int = 3
    last_loss: object = None
    best_val: float = float("inf")
    best_loss_tensor: object = None
    count: int = 0
    loss_sum: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    recent: deque = None
    recent_floats: deque = field(default_factory=lambda: deque(maxlen=50))

    def __post_init__(self):
        self.recent = deque(maxlen=self.window)

    def report(self):
        window = sum(self.recent_floats) / len(self.recent_floats)
        return (f"n={self.count} mean={self.loss_sum.item() / self.count:.4f} "
                f"window={window:.4f} best={self.best_val:.4f}")


def main(steps=14):
    torch.manual_seed(0)
    x = torch.randn(112, 4)
    y = torch.stack([x[:, 0] * x[:, 1], x[:, 2] - x[:, 3]], dim=1)
    net = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    tracker = TrainingTracker()
    for step in range(steps):
        idx = torch.arange(step * 8, step * 8 + 8)
        loss = F.smooth_l1_loss(net(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()

        tracker.last_loss = loss  # either
        tracker.recent.append(loss)  # either
        tracker.recent_floats.append(loss.item())  # ok
        tracker.loss_sum = tracker.loss_sum + loss  # expect: TEN501
        if loss.item() < tracker.best_val:
            tracker.best_val = loss.item()  # ok
            tracker.best_loss_tensor = loss  # either
        tracker.count += 1  # ok
        if step % 5 == 4:
            print(tracker.report())
    print("recent window", [round(v.item(), 4) for v in tracker.recent])


if __name__ == "__main__":
    main()
