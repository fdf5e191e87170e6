"""A tracker base class with subclasses that differ in how values are stored."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class BaseTracker:
    def __init__(self):
        self.values = []
        self.last = None

    def _store(self, v):
        return v

    def update(self, v):
        self.values.append(self._store(v))

    def mean(self):
        return sum(float(v) for v in self.values) / len(self.values)


class TensorTracker(BaseTracker):
    pass


class ScalarTracker(BaseTracker):
    def _store(self, v):
        return v.item() if torch.is_tensor(v) else float(v)


class DetachTracker(BaseTracker):
    def _store(self, v):
        return v.detach().cpu()


class LastValueCallback:
    def __init__(self):
        self.last_loss = None
        self.calls = 0

    def on_step_end(self, loss):
        self.calls += 1
        self.last_loss = loss  # either: TEN501


model = nn.Sequential(nn.Linear(4, 4), nn.SiLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
raw, scalar, det = TensorTracker(), ScalarTracker(), DetachTracker()
cb = LastValueCallback()
for step in range(8):
    x = torch.randn(8, 4)
    loss = (model(x) - x.mean(1, keepdim=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    raw.update(loss)  # expect: TEN501
    scalar.update(loss)  # ok
    det.update(loss)  # ok
    cb.on_step_end(loss)
print(round(raw.mean(), 4), round(scalar.mean(), 4), round(det.mean(), 4), round(cb.last_loss.item(), 4))
