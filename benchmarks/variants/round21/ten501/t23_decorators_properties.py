"""A logging decorator around train steps, and a trainer whose `last_loss` property records history."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

_STEP_LOG = []
_SAFE_LOG = []


def log_step(fn):
    """Remember everything a step function returns (for a dashboard)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        _STEP_LOG.append(out)  # expect: TEN501
        return out

    return wrapper


def log_step_scalars(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        _SAFE_LOG.append({k: (v.item() if torch.is_tensor(v) else v) for k, v in out.items()})  # ok
        return out

    return wrapper


def timed(fn):
    calls = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(len(args))
        return fn(*args, **kwargs)

    wrapper.calls = calls
    return wrapper


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self._loss_history = []

    @property
    def last_loss(self):
        return self._loss_history[-1] if self._loss_history else None

    @last_loss.setter
    def last_loss(self, value):
        self._loss_history.append(value)

    @property
    def mean_loss(self):
        return sum(float(v) for v in self._loss_history) / max(1, len(self._loss_history))

    @log_step
    @timed
    def train_step(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    @log_step_scalars
    def train_step_dict(self, x, y):
        pred = self.model(x)
        loss = F.mse_loss(pred, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return {"loss": loss, "pred_std": pred.std(), "n": len(x)}


x = torch.randn(160, 4)
y = x.sum(1, keepdim=True) ** 2 / 4
trainer = Trainer(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)), lr=0.02)
trainer_ok = Trainer(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)), lr=0.02)

for epoch in range(3):
    for i in range(0, 160, 32):
        loss = trainer.train_step(x[i:i + 32], y[i:i + 32])
        trainer.last_loss = loss  # expect: TEN501
        out = trainer_ok.train_step_dict(x[i:i + 32], y[i:i + 32])
        trainer_ok.last_loss = out["loss"].item()  # ok

print("decorated log:", len(_STEP_LOG), "mean:", torch.stack(_STEP_LOG).mean().item())
print("safe log last:", {k: round(v, 4) for k, v in _SAFE_LOG[-1].items()})
print("property histories:", round(trainer.mean_loss, 4), round(trainer_ok.mean_loss, 4),
      "timed calls:", len(Trainer.train_step.__wrapped__.calls))
