"""A model wrapper whose properties / setters hide the bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LossTracker:
    def __init__(self):
        self._history = []
        self._last = None

    @property
    def last_loss(self):
        return self._last

    @last_loss.setter
    def last_loss(self, value):
        self._last = value
        self._history.append(value)

    @property
    def mean(self):
        return sum(float(v) for v in self._history) / max(1, len(self._history))


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))
        self._preds = []
        self._pred_sizes = []

    @property
    def predictions(self):
        return self._preds

    def forward(self, x):
        y = self.net(x)
        self._preds.append(y)  # expect: TEN501
        self._pred_sizes.append(y.shape[0])  # ok
        return y


model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
raw = LossTracker()
clean = LossTracker()
for step in range(10):
    x = torch.randn(16, 3)
    y = x.pow(2).sum(1, keepdim=True)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    raw.last_loss = loss  # expect: TEN501
    clean.last_loss = loss.item()  # ok

print("raw mean", round(raw.mean, 4), "clean mean", round(clean.mean, 4), "last", round(clean.last_loss, 4))
print("preds", len(model.predictions), sum(model._pred_sizes), round(float(model.predictions[-1].mean()), 4))
