"""Learning-rate range test with exponentially smoothed loss."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class LRFinder:
    def __init__(self, model, start_lr=1e-4, end_lr=1.0, steps=12, beta=0.9):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=start_lr)
        self.mult = (end_lr / start_lr) ** (1 / steps)
        self.steps, self.beta = steps, beta
        self.history = {"lr": [], "loss": []}

    def range_test(self, data_fn, detach):
        avg_loss = 0.0
        best = math.inf
        for it in range(1, self.steps + 1):
            x, y = data_fn()
            loss = nn.functional.mse_loss(self.model(x), y)
            if detach:
                avg_loss = self.beta * avg_loss + (1 - self.beta) * loss.item()  # ok
            else:
                avg_loss = self.beta * avg_loss + (1 - self.beta) * loss  # expect: TEN501
            smoothed = avg_loss / (1 - self.beta ** it)
            self.history["lr"].append(self.opt.param_groups[0]["lr"])
            self.history["loss"].append(float(smoothed))
            best = min(best, float(smoothed))
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            for g in self.opt.param_groups:
                g["lr"] *= self.mult
        return best


def data_fn():
    x = torch.randn(16, 3)
    return x, x @ torch.tensor([[0.5], [-1.0], [2.0]])


for detach in (False, True):
    torch.manual_seed(0)
    f = LRFinder(nn.Linear(3, 1))
    print("detach" if detach else "graph", round(f.range_test(data_fn, detach), 4), round(f.history["lr"][-1], 5))
