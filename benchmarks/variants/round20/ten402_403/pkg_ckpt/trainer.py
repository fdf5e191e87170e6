"""Trainer with best-checkpoint tracking and a divergence rollback."""
import torch
import torch.nn as nn

from .snapshots import capture, capture_copy, capture_params, restore_params


class Trainer:
    def __init__(self, model, lr, use_copy=False):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.use_copy = use_copy
        self.best_score = float("inf")
        self.best = None
        self.anchor = None

    def _checkpoint(self, score):
        if score < self.best_score:
            self.best_score = score
            if self.use_copy:
                self.best = capture_copy(self.model)  # ok
            else:
                self.best = capture(self.model)  # expect: TEN402

    def set_rollback_point(self):
        if self.use_copy:
            self.anchor = [p.detach().clone() for p in self.model.parameters()]  # ok
        else:
            self.anchor = capture_params(self.model)  # expect: TEN402

    def rollback(self):
        restore_params(self.model, self.anchor)

    def epoch(self, x, y, xv, yv):
        self.opt.zero_grad()
        nn.functional.mse_loss(self.model(x), y).backward()
        self.opt.step()
        with torch.no_grad():
            score = nn.functional.mse_loss(self.model(xv), yv).item()
        self._checkpoint(score)
        return score
