"""Tracks the best weights per metric; entries are stored as attributes by name."""
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class MultiMetricBest:
    def __init__(self, metrics):
        self.modes = dict(metrics)  # name -> "min" | "max"
        for name, mode in self.modes.items():
            setattr(self, f"best_{name}", float("inf") if mode == "min" else -float("inf"))
            setattr(self, f"best_{name}_state", None)

    def _better(self, name, value):
        cur = getattr(self, f"best_{name}")
        return value < cur if self.modes[name] == "min" else value > cur

    def update(self, model, **values):
        for name, value in values.items():
            if self._better(name, value):
                setattr(self, f"best_{name}", value)
                setattr(self, f"best_{name}_state", model.state_dict())  # expect: TEN402

    def state_for(self, name):
        return getattr(self, f"best_{name}_state")


class InitKeeper:
    def __init__(self, model):
        setattr(self, "init_state", copy.deepcopy(model.state_dict()))  # ok
        setattr(self, "init_norm", sum(p.norm().item() for p in model.parameters()))  # ok


x = torch.randn(30, 12)
y = (x[:, 0] * x[:, 1] > 0).long()
xv, yv = torch.randn(100, 12), None
yv = (xv[:, 0] * xv[:, 1] > 0).long()

model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2))
tracker = MultiMetricBest({"loss": "min", "acc": "max"})
keeper = InitKeeper(model)
opt = torch.optim.SGD(model.parameters(), lr=1.5)

for step in range(60):
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
    with torch.no_grad():
        out = model(xv)
        vloss = F.cross_entropy(out, yv).item()
        acc = (out.argmax(1) == yv).float().mean().item()
    tracker.update(model, loss=vloss, acc=acc)

with torch.no_grad():
    final = F.cross_entropy(model(xv), yv).item()
    model.load_state_dict(tracker.state_for("loss"))
    reloaded = F.cross_entropy(model(xv), yv).item()
    model.load_state_dict(tracker.state_for("acc"))
    acc_re = (model(xv).argmax(1) == yv).float().mean().item()
    model.load_state_dict(keeper.init_state)
    init_loss = F.cross_entropy(model(xv), yv).item()
print(f"final val loss {final:.5f}; best recorded {tracker.best_loss:.5f}; reloaded {reloaded:.5f}")
print(f"best acc recorded {tracker.best_acc:.4f}; reloaded acc {acc_re:.4f}")
print(f"init loss {init_loss:.5f}; init norm {keeper.init_norm:.4f}")
