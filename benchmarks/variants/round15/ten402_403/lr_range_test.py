"""LR range test (fastai/torch-lr-finder style): sweep the lr, then reset model and optimizer."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LRFinder:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.model_state = copy.copy(model.state_dict())  # expect: TEN402
        self.optimizer_state = copy.deepcopy(optimizer.state_dict())  # ok
        self.history = {"lr": [], "loss": []}

    def range_test(self, x, y, start_lr=1e-4, end_lr=1.0, num_iter=30):
        gamma = (end_lr / start_lr) ** (1 / num_iter)
        lr, best = start_lr, math.inf
        for _ in range(num_iter):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            self.optimizer.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.history["lr"].append(lr)
            self.history["loss"].append(loss.item())
            best = min(best, loss.item())
            if loss.item() > 4 * best:
                break
            lr *= gamma

    def suggestion(self):
        losses = self.history["loss"]
        grads = [b - a for a, b in zip(losses[:-1], losses[1:])]  # ok
        return self.history["lr"][grads.index(min(grads))]

    def reset(self):
        self.model.load_state_dict(self.model_state)
        self.optimizer.load_state_dict(self.optimizer_state)


class LRFinderFixed(LRFinder):
    def __init__(self, model, optimizer):
        super().__init__(model, optimizer)
        self.model_state = copy.deepcopy(model.state_dict())  # ok


if __name__ == "__main__":
    x, y = torch.randn(128, 10), torch.randn(128, 1)
    for cls in (LRFinder, LRFinderFixed):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
        before = model[0].weight.detach().clone()  # ok
        opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        finder = cls(model, opt)
        finder.range_test(x, y)
        finder.reset()
        print(cls.__name__, "suggested", finder.suggestion(), "reset ok:", torch.equal(before, model[0].weight))
