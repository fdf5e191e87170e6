"""A small Trainer with a callback system (base-class snapshot helpers, copy strategies)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

COPY_FNS = {
    "shallow": dict,
    "deep": copy.deepcopy,
    "clone": lambda sd: {k: t.clone() for k, t in sd.items()},
}


class Callback:
    def on_train_begin(self, trainer): pass
    def on_epoch_end(self, trainer, logs): pass
    def on_train_end(self, trainer): pass

    def snapshot(self, model):
        return model.state_dict()  # either


class BestWeights(Callback):
    def __init__(self, monitor="val_loss"):
        self.monitor = monitor
        self.best = float("inf")
        self.weights = None

    def on_epoch_end(self, trainer, logs):
        if logs[self.monitor] < self.best:
            self.best = logs[self.monitor]
            self.weights = self.snapshot(trainer.model)  # expect: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.weights)


class WarmRestart(Callback):
    """Resets to the initial weights when validation loss explodes."""

    def snapshot(self, model):
        return copy.deepcopy(model.state_dict())  # ok

    def on_train_begin(self, trainer):
        self.initial = self.snapshot(trainer.model)  # ok
        self.restarts = 0

    def on_epoch_end(self, trainer, logs):
        if logs["val_loss"] > 1e3:
            trainer.model.load_state_dict(self.initial)
            self.restarts += 1


class Snapshotter(Callback):
    """Keeps every k-th epoch's weights using a configurable copy function."""

    def __init__(self, every=3, mode="clone"):
        self.every, self.mode, self.snaps = every, mode, []

    def on_epoch_end(self, trainer, logs):
        if logs["epoch"] % self.every == 0:
            if self.mode == "shallow":
                self.snaps.append(COPY_FNS["shallow"](trainer.model.state_dict()))  # expect: TEN402
            else:
                self.snaps.append(COPY_FNS[self.mode](trainer.model.state_dict()))  # ok

    def on_train_end(self, trainer):
        first, last = self.snaps[0], self.snaps[-1]
        self.spread = sum((first[k] - last[k]).abs().sum().item() for k in first)


class Trainer:
    def __init__(self, model, callbacks, lr=0.1):
        self.model, self.callbacks = model, callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.5)

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, train, val, epochs=14):
        self._call("on_train_begin")
        for epoch in range(epochs):
            self.model.train()
            for xb, yb in zip(train[0].split(8), train[1].split(8)):
                self.opt.zero_grad()
                F.mse_loss(self.model(xb), yb).backward()
                self.opt.step()
            self.model.eval()
            with torch.no_grad():
                vl = F.mse_loss(self.model(val[0]), val[1]).item()
            self._call("on_epoch_end", {"epoch": epoch, "val_loss": vl})
        self._call("on_train_end")


if __name__ == "__main__":
    w = torch.randn(16, 1)
    xt, xv = torch.randn(16, 16), torch.randn(64, 16)
    train, val = (xt, xt @ w + torch.randn(16, 1)), (xv, xv @ w + torch.randn(64, 1))
    for mode in ("shallow", "deep", "clone"):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
        best, restart, snaps = BestWeights(), WarmRestart(), Snapshotter(mode=mode)
        Trainer(model, [best, restart, snaps]).fit(train, val)
        with torch.no_grad():
            final = F.mse_loss(model(val[0]), val[1]).item()
        print(mode, "best", round(best.best, 4), "after restore", round(final, 4),
              "snapshot spread", round(snaps.spread, 4))
