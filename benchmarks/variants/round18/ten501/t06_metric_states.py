"""torchmetrics-like Metric objects with add_state/update/compute/reset."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Metric:
    def __init__(self):
        self._defaults = {}

    def add_state(self, name, default):
        self._defaults[name] = default
        setattr(self, name, default.clone() if isinstance(default, torch.Tensor) else [])

    def reset(self):
        for name, default in self._defaults.items():
            setattr(self, name, default.clone() if isinstance(default, torch.Tensor) else [])

    def __call__(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()


class MeanSquaredError(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("sum_squared_error", torch.tensor(0.0))
        self.add_state("total", torch.tensor(0))

    def update(self, preds, target):
        diff = preds - target
        self.sum_squared_error = self.sum_squared_error + (diff * diff).sum()
        self.total = self.total + target.numel()

    def compute(self):
        return self.sum_squared_error / self.total


class MeanMetric(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("values", [])

    def update(self, value):
        self.values.append(value)

    def compute(self):
        return torch.stack([torch.as_tensor(v, dtype=torch.float32) for v in self.values]).mean()


model = nn.Linear(4, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
train = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(3)]
xv, yv = torch.randn(8, 4), torch.randn(8, 2)

train_mse = MeanSquaredError()
train_mean_loss = MeanMetric()
train_mean_loss_detached = MeanMetric()
step_mse = MeanSquaredError()
val_mse = MeanSquaredError()
epoch_scores = []

for epoch in range(2):
    for m in (train_mse, train_mean_loss, train_mean_loss_detached, val_mse):
        m.reset()
    for xb, yb in train:
        out = model(xb)
        loss = F.mse_loss(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_mse.update(out, yb)  # expect: TEN501
        train_mean_loss.update(loss)  # expect: TEN501
        train_mean_loss_detached.update(loss.detach())  # ok
        step_mse.reset()
        step_mse.update(out, yb)  # ok
    with torch.no_grad():
        val_mse.update(model(xv), yv)  # ok
    epoch_scores.append(train_mse.compute().item())  # ok
    print(f"epoch {epoch}: train mse {epoch_scores[-1]:.4f} "
          f"mean loss {train_mean_loss_detached.compute().item():.4f} val mse {val_mse.compute().item():.4f}")
