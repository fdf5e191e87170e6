"""fastai-style learning-rate range test with exponential smoothing and preallocated buffers."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LRFinder:
    def __init__(self, model, optimizer, criterion):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.history = {"lr": [], "loss": []}
        self.init_state = copy.deepcopy(model.state_dict())

    def range_test(self, batches, start_lr=1e-4, end_lr=1.0, num_iter=30, beta=0.9, diverge_th=5.0):
        mult = (end_lr / start_lr) ** (1 / (num_iter - 1))
        lr = start_lr
        avg_loss, best_loss = 0.0, float("inf")
        raw_losses = torch.zeros(num_iter)
        lrs = torch.zeros(num_iter)
        for it in range(num_iter):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            x, y = batches[it % len(batches)]
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

            avg_loss = beta * avg_loss + (1 - beta) * loss  # expect: TEN501
            smoothed = avg_loss / (1 - beta ** (it + 1))
            raw_losses[it] = loss  # expect: TEN501
            lrs[it] = lr  # ok
            self.history["lr"].append(lr)
            self.history["loss"].append(smoothed)  # expect: TEN501
            best_loss = min(best_loss, smoothed.item())  # ok
            if smoothed.item() > diverge_th * best_loss:
                break
            lr *= mult
        self.model.load_state_dict(self.init_state)
        return lrs[:it + 1], raw_losses[:it + 1]

    def suggestion(self):
        losses = torch.stack(self.history["loss"])
        grads = losses[1:] - losses[:-1]
        return self.history["lr"][int(grads.argmin()) + 1]


class LRFinderScalar(LRFinder):
    def range_test(self, batches, start_lr=1e-4, end_lr=1.0, num_iter=30, beta=0.9):
        mult = (end_lr / start_lr) ** (1 / (num_iter - 1))
        lr, avg_loss = start_lr, 0.0
        for it in range(num_iter):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            x, y = batches[it % len(batches)]
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            avg_loss = beta * avg_loss + (1 - beta) * loss.item()  # ok
            self.history["loss"].append(torch.tensor(avg_loss / (1 - beta ** (it + 1))))  # ok
            self.history["lr"].append(lr)
            lr *= mult
        self.model.load_state_dict(self.init_state)


x = torch.randn(320, 10)
y = (x[:, :3].sum(1) > 0).long()
batches = [(x[i:i + 32], y[i:i + 32]) for i in range(0, 320, 32)]
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
finder = LRFinder(model, torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9), nn.CrossEntropyLoss())
lrs, raw = finder.range_test(batches)
finder2 = LRFinderScalar(model, torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9), nn.CrossEntropyLoss())
finder2.range_test(batches)
print("iterations:", len(lrs), "suggested lr:", f"{finder.suggestion():.2e}", f"{finder2.suggestion():.2e}")
print("raw loss min/max:", raw.min().item(), raw.max().item(), "lr range:", f"{lrs[0].item():.1e}..{lrs[-1].item():.1e}")
