"""Leslie Smith style LR range test with exponential smoothing of the loss."""
import copy
import math

import torch
import torch.nn as nn


class LRFinder:
    def __init__(self, model, optimizer, criterion, device="cpu"):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device
        self.history = {"lr": [], "loss": []}
        self._state = copy.deepcopy(model.state_dict())

    def range_test(self, loader, start_lr=1e-7, end_lr=10.0, num_iter=100, beta=0.98, diverge_th=5.0):
        mult = (end_lr / start_lr) ** (1.0 / num_iter)
        lr = start_lr
        for g in self.optimizer.param_groups:
            g["lr"] = lr
        avg_loss = 0.0
        best_loss = math.inf
        it = iter(loader)
        self.model.train()
        for step in range(1, num_iter + 1):
            try:
                x, y = next(it)
            except StopIteration:
                it = iter(loader)
                x, y = next(it)
            x, y = x.to(self.device), y.to(self.device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()

            avg_loss = beta * avg_loss + (1 - beta) * loss  # expect: TEN501
            smoothed = avg_loss / (1 - beta ** step)
            self.history["lr"].append(lr)  # ok
            self.history["loss"].append(smoothed)  # expect: TEN501

            if smoothed < best_loss:
                best_loss = smoothed.item()
            if step > 1 and smoothed > diverge_th * best_loss:
                print(f"stopping early at lr={lr:.2e}")
                break
            lr *= mult
            for g in self.optimizer.param_groups:
                g["lr"] = lr
        self.model.load_state_dict(self._state)
        return self.history

    def suggestion(self):
        losses = torch.stack([torch.as_tensor(l) for l in self.history["loss"]]).detach()
        idx = int(torch.argmin(losses[1:] - losses[:-1]))
        return self.history["lr"][idx]


if __name__ == "__main__":
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=1e-7, momentum=0.9)
    data = [(torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))) for _ in range(50)]
    finder = LRFinder(model, opt, nn.CrossEntropyLoss())
    finder.range_test(data, num_iter=80)
    print("suggested lr:", finder.suggestion())
