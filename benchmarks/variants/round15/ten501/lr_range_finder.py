"""LR range test (torch-lr-finder style) that records plain floats."""
import copy
import math

import torch
import torch.nn as nn


class LRFinder:
    def __init__(self, model, optimizer, criterion):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion
        self.history = {"lr": [], "loss": []}
        self.best_loss = None
        self._init_state = copy.deepcopy(model.state_dict())

    def _train_batch(self, batches, accumulation_steps=2):
        self.model.train()
        total_loss = None
        self.optimizer.zero_grad()
        for x, y in batches[:accumulation_steps]:
            loss = self.criterion(self.model(x), y) / accumulation_steps
            loss.backward()
            total_loss = loss if total_loss is None else total_loss + loss  # either
        self.optimizer.step()
        return total_loss.item()

    def range_test(self, batches, start_lr=1e-4, end_lr=1.0, num_iter=10, smooth_f=0.05, diverge_th=5):
        gamma = (end_lr / start_lr) ** (1 / num_iter)
        lr = start_lr
        for it in range(num_iter):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            loss = self._train_batch(batches)
            if it > 0:
                loss = smooth_f * loss + (1 - smooth_f) * self.history["loss"][-1]
            self.history["lr"].append(lr)  # ok
            self.history["loss"].append(loss)  # ok
            if self.best_loss is None or loss < self.best_loss:
                self.best_loss = loss  # ok
            if loss > diverge_th * self.best_loss or math.isnan(loss):
                break
            lr *= gamma
        self.model.load_state_dict(self._init_state)
        return self.history


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
    finder = LRFinder(model, torch.optim.SGD(model.parameters(), lr=1e-4), nn.CrossEntropyLoss())
    batches = [(torch.randn(16, 6), torch.randint(0, 2, (16,))) for _ in range(2)]
    hist = finder.range_test(batches)
    print(len(hist["lr"]), round(finder.best_loss, 4))
