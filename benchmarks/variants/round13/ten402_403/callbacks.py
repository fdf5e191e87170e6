"""A minimal callback-driven training loop with a few weight-tracking callbacks."""
import collections
import copy

import torch
from torch import nn
import torch.nn.functional as F


class Callback:
    def on_fit_start(self, trainer): ...
    def on_step_end(self, trainer, loss): ...
    def on_epoch_end(self, trainer, val_loss): ...
    def on_fit_end(self, trainer): ...


class RestoreBestWeights(Callback):
    def __init__(self):
        self.best = float("inf")
        self.weights = None

    def on_epoch_end(self, trainer, val_loss):
        if val_loss < self.best:
            self.best = val_loss
            skip = ("num_batches_tracked",)
            self.weights = {k: v for k, v in trainer.model.state_dict().items() if not k.endswith(skip)}  # expect: TEN402

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(self.weights, strict=False)


class LastKAverage(Callback):
    """Average the weights of the last k epochs at the end of training."""

    def __init__(self, k=3):
        self.window = collections.deque(maxlen=k)

    def on_epoch_end(self, trainer, val_loss):
        self.window.append(copy.copy(trainer.model.state_dict()))  # expect: TEN402

    def on_fit_end(self, trainer):
        keys = self.window[0].keys()
        avg = {k: torch.stack([sd[k].float() for sd in self.window]).mean(0).to(self.window[0][k].dtype) for k in keys}
        trainer.model.load_state_dict(avg)


class ParamChangeMonitor(Callback):
    """Logs how far each parameter tensor moved during the epoch."""

    def __init__(self):
        self.start = None
        self.log = []

    def on_fit_start(self, trainer):
        self.start = list(trainer.model.parameters())  # expect: TEN402
        self.names = [n for n, _ in trainer.model.named_parameters()]  # ok

    def on_epoch_end(self, trainer, val_loss):
        moved = [(p - p0).norm().item() for p, p0 in zip(trainer.model.parameters(), self.start)]
        self.log.append(dict(zip(self.names, moved)))
        self.start = [p.detach().clone() for p in trainer.model.parameters()]  # ok


class WarmupProbe(Callback):
    """Tries a short high-LR burst at the start and rolls back if it diverges."""

    def __init__(self, steps=3, lr=1.0):
        self.steps, self.lr = steps, lr
        self.diverged = False

    def on_fit_start(self, trainer):
        saved = {**trainer.model.state_dict()}  # expect: TEN402
        saved_opt = copy.deepcopy(trainer.optimizer.state_dict())  # ok
        probe_opt = torch.optim.SGD(trainer.model.parameters(), lr=self.lr)
        for _ in range(self.steps):
            probe_opt.zero_grad()
            loss = trainer.loss(*trainer.train_data)
            loss.backward()
            probe_opt.step()
        self.diverged = not torch.isfinite(loss) or loss.item() > 10.0
        trainer.model.load_state_dict(saved)
        trainer.optimizer.load_state_dict(saved_opt)


class Trainer:
    def __init__(self, model, train_data, val_data, callbacks=(), lr=0.05):
        self.model, self.train_data, self.val_data = model, train_data, val_data
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.callbacks = list(callbacks)

    def loss(self, x, y):
        return F.cross_entropy(self.model(x), y)

    def fit(self, epochs=5):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for _ in range(epochs):
            self.model.train()
            self.optimizer.zero_grad()
            loss = self.loss(*self.train_data)
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_step_end(self, loss.item())
            self.model.eval()
            with torch.no_grad():
                val = self.loss(*self.val_data).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, val)
        for cb in self.callbacks:
            cb.on_fit_end(self)
        return self


def make(seed=0):
    torch.manual_seed(seed)
    x = torch.randn(64, 6)
    y = (x[:, 0] > 0).long()
    model = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
    return model, (x, y), (x[:32] + 0.1, y[:32])


if __name__ == "__main__":
    model, tr, va = make()
    cbs = [RestoreBestWeights(), LastKAverage(), ParamChangeMonitor(), WarmupProbe()]
    Trainer(model, tr, va, cbs).fit()
    print("param movement per epoch", [round(sum(d.values()), 4) for d in cbs[2].log])
