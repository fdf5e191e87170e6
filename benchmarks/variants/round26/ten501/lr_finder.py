"""Learning-rate range test with an exponentially smoothed loss."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class LRFinder:
    def __init__(self, model, optimizer, start_lr=1e-4, end_lr=1.0, num_iter=12, beta=0.9, smooth_scalar=True):
        self.model, self.optimizer = model, optimizer
        self.start_lr, self.end_lr, self.num_iter = start_lr, end_lr, num_iter
        self.beta = beta
        self.smooth_scalar = smooth_scalar
        self.history = {"lr": [], "loss": []}

    def _set_lr(self, lr):
        for g in self.optimizer.param_groups:
            g["lr"] = lr

    def range_test(self, batches):
        avg_loss, best = 0.0, math.inf
        mult = (self.end_lr / self.start_lr) ** (1 / (self.num_iter - 1))
        lr = self.start_lr
        for it, (x, y) in enumerate(batches[: self.num_iter]):
            self._set_lr(lr)
            loss = nn.functional.mse_loss(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if self.smooth_scalar:
                avg_loss = self.beta * avg_loss + (1 - self.beta) * loss.item()  # ok
            else:
                avg_loss = self.beta * avg_loss + (1 - self.beta) * loss  # expect: TEN501
            smoothed = avg_loss / (1 - self.beta ** (it + 1))
            self.history["lr"].append(lr)
            self.history["loss"].append(smoothed)
            best = min(best, float(smoothed))
            if float(smoothed) > 4 * best:
                break
            lr *= mult
        return self.history


batches = []
for _ in range(12):
    x = torch.randn(16, 4)
    batches.append((x, 3 * x[:, :1] - x[:, 1:2]))
for scalar in (True, False):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    h = LRFinder(net, torch.optim.SGD(net.parameters(), lr=1e-4), smooth_scalar=scalar).range_test(batches)
    i = min(range(len(h["loss"])), key=lambda j: float(h["loss"][j]))
    print("scalar" if scalar else "tensor", len(h["lr"]), f"best lr {h['lr'][i]:.2e}")
