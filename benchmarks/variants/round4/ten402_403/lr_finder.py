"""Learning-rate range test (exponential sweep), restoring the model afterwards."""
import copy
import math

import torch
import torch.nn as nn


class LRFinder:
    def __init__(self, model, optimizer, criterion):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.history = {"lr": [], "loss": []}

    def _set_lr(self, lr):
        for group in self.optimizer.param_groups:
            group["lr"] = lr

    def range_test(self, batches, start_lr=1e-6, end_lr=1.0, num_iter=50, beta=0.98):
        sd = self.model.state_dict()
        saved_model = sd.copy()  # expect: TEN402
        saved_optim = copy.deepcopy(self.optimizer.state_dict())  # ok
        gamma = (end_lr / start_lr) ** (1.0 / num_iter)
        lr, avg, best = start_lr, 0.0, math.inf
        self.model.train()
        for i in range(num_iter):
            x, y = batches[i % len(batches)]
            self._set_lr(lr)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            avg = beta * avg + (1 - beta) * loss.item()
            smoothed = avg / (1 - beta ** (i + 1))
            self.history["lr"].append(lr)
            self.history["loss"].append(smoothed)
            best = min(best, smoothed)
            if smoothed > 4 * best or not math.isfinite(smoothed):
                break
            lr *= gamma
        # leave the model exactly as we found it
        self.model.load_state_dict(saved_model)
        self.optimizer.load_state_dict(saved_optim)
        return self.history

    def suggestion(self):
        losses = self.history["loss"]
        if len(losses) < 3:
            return None
        grads = [losses[i + 1] - losses[i] for i in range(len(losses) - 1)]
        i = min(range(len(grads)), key=grads.__getitem__)
        return self.history["lr"][i]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(net.parameters(), lr=1e-3)
    finder = LRFinder(net, opt, nn.MSELoss())
    data = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(4)]
    finder.range_test(data, num_iter=20)
    print(finder.suggestion())
