"""Loss-spike guard: remember the last few healthy states and roll back when
the training loss jumps far above its running average."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpikeGuard:
    def __init__(self, model, optimizer, history=3, threshold=3.0, beta=0.9):
        self.model = model
        self.optimizer = optimizer
        self.history = deque(maxlen=history)
        self.threshold = threshold
        self.beta = beta
        self.avg = None
        self.rollbacks = 0

    def weights(self):
        return self.model.state_dict()

    def observe(self, loss):
        """Returns True if the step was rolled back."""
        if self.avg is not None and loss > self.threshold * self.avg and self.history:
            self.model.load_state_dict(self.history[0])
            self.optimizer.state.clear()
            self.rollbacks += 1
            return True
        self.history.append(self.weights())  # expect: TEN402
        self.avg = loss if self.avg is None else self.beta * self.avg + (1 - self.beta) * loss
        return False


def train(steps=40, bad_step=25, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    guard = SpikeGuard(model, opt)
    x, y = torch.randn(64, 5), torch.randn(64, 1)
    for step in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        if step == bad_step:
            for p in model.parameters():
                p.grad.mul_(1e4)  # simulated corrupted batch
            for g in opt.param_groups:
                g["lr"] = 1.0
        opt.step()
        for g in opt.param_groups:
            g["lr"] = 5e-3
        with torch.no_grad():
            post = F.mse_loss(model(x), y).item()
        if guard.observe(post):
            with torch.no_grad():
                after = F.mse_loss(model(x), y).item()
            print(f"step {step}: spike {post:.2f}, rolled back, loss now {after:.2f}")
    return model, guard


if __name__ == "__main__":
    train()
