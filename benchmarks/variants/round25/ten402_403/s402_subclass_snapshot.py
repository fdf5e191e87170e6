"""Base trainer exposes snapshot()/restore(); subclasses implement selection policies."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseTrainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.8)

    def snapshot(self):
        return self.model.state_dict()  # expect: TEN402

    def restore(self, state):
        self.model.load_state_dict(state)

    def step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        return loss.item()


class BestOfNTrainer(BaseTrainer):
    def fit(self, x, y, xv, yv, epochs):
        best, best_state = float("inf"), None
        for _ in range(epochs):
            self.step(x, y)
            with torch.no_grad():
                v = F.mse_loss(self.model(xv), yv).item()
            if v < best:
                best, best_state = v, self.snapshot()  # either: TEN402
        self.restore(best_state)
        return best


class ClonedSnapshotTrainer(BestOfNTrainer):
    def snapshot(self):
        return {k: t.detach().clone() for k, t in self.model.state_dict().items()}  # ok


torch.manual_seed(0)
x = torch.randn(24, 3)
y = torch.randn(24, 1)
xv = torch.randn(48, 3)
yv = xv[:, :1] * 0.1
for cls in (BestOfNTrainer, ClonedSnapshotTrainer):
    torch.manual_seed(3)
    m = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
    t = cls(m, lr=0.1)
    b = t.fit(x, y, xv, yv, 25)
    with torch.no_grad():
        print(cls.__name__, "best", round(b, 5), "restored", round(F.mse_loss(m(xv), yv).item(), 5))
