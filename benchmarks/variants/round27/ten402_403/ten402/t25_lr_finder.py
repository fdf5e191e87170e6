import copy
import math
import torch
import torch.nn as nn


class LRFinder:
    def __init__(self, model, optimizer, criterion):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion
        self._init = self.model.state_dict()  # expect: TEN402
        self._opt_init = copy.deepcopy(optimizer.state_dict())  # ok

    def range_test(self, X, Y, start=1e-4, end=3.0, steps=20):
        lrs, losses = [], []
        mult = (end / start) ** (1 / (steps - 1))
        lr = start
        for _ in range(steps):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(X), Y)
            loss.backward()
            self.optimizer.step()
            lrs.append(lr)
            losses.append(loss.item() if math.isfinite(loss.item()) else 1e9)
            lr *= mult
        return lrs, losses

    def reset(self):
        self.model.load_state_dict(self._init)
        self.optimizer.load_state_dict(self._opt_init)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
X = torch.randn(64, 4)
Y = X[:, :1] - X[:, 1:2]
finder = LRFinder(model, opt, nn.MSELoss())
lrs, losses = finder.range_test(X, Y)
best = min(range(len(losses)), key=losses.__getitem__)
print(f"suggested lr {lrs[best]:.5f} (loss {losses[best]:.5f})")
finder.reset()
with torch.no_grad():
    print(f"loss after reset {nn.functional.mse_loss(model(X), Y).item():.5f}")
for g in opt.param_groups:
    g["lr"] = lrs[best] / 10
for _ in range(30):
    opt.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    opt.step()
with torch.no_grad():
    print(f"loss after 30 steps {nn.functional.mse_loss(model(X), Y).item():.5f}")
