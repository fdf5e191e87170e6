import math

import torch
from torch import nn

from . import snapshots


class CyclicTrainer:
    """SGD with cosine cycles; a cycle that ends worse than it began is undone."""

    def __init__(self, model, data, val, snapshot_fn, checkpointer, lr=0.1, cycle_len=8):
        self.model = model
        self.data, self.val = data, val
        self.snapshot_fn = snapshot_fn
        self.ckpt = checkpointer
        self.base_lr = lr
        self.cycle_len = cycle_len
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.best_val = float("inf")
        self.undone = 0

    def val_loss(self):
        with torch.no_grad():
            return nn.functional.mse_loss(self.model(self.val[0]), self.val[1]).item()

    def begin_cycle(self):
        self.anchor = getattr(snapshots, self.snapshot_fn)(self.model)  # expect: TEN402
        self.anchor_val = self.val_loss()

    def end_cycle(self):
        v = self.val_loss()
        if v > self.anchor_val:
            self.model.load_state_dict(self.anchor)
            self.undone += 1
            v = self.val_loss()
        if v < self.best_val:
            self.best_val = v
            self.ckpt.save("best", self.model)
        return v

    def run(self, cycles):
        x, y = self.data
        curve = []
        for c in range(cycles):
            self.begin_cycle()
            for i in range(self.cycle_len):
                for g in self.opt.param_groups:
                    g["lr"] = self.base_lr * 0.5 * (1 + math.cos(math.pi * i / self.cycle_len))
                self.opt.zero_grad()
                nn.functional.mse_loss(self.model(x), y).backward()
                self.opt.step()
            curve.append(self.end_cycle())
        self.ckpt.restore("best", self.model)
        return curve
