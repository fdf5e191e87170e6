"""A tiny Keras-like fit loop with callbacks (restore best weights, memory checkpoint)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Callback:
    def on_epoch_end(self, trainer, logs):
        pass

    def on_train_end(self, trainer):
        pass


class RestoreBestWeights(Callback):
    def __init__(self, monitor="val_loss"):
        self.monitor = monitor
        self.best = float("inf")
        self.best_weights = None

    def on_epoch_end(self, trainer, logs):
        if logs[self.monitor] < self.best:
            self.best = logs[self.monitor]
            self.best_weights = {k: v for k, v in trainer.model.state_dict().items()}  # expect: TEN402

    def on_train_end(self, trainer):
        if self.best_weights is not None:
            trainer.model.load_state_dict(self.best_weights)


class InMemoryCheckpoint(Callback):
    def __init__(self):
        self.snapshots = []

    def on_epoch_end(self, trainer, logs):
        snap = {k: v.detach().clone() for k, v in trainer.model.state_dict().items()}  # ok
        self.snapshots.append((logs["epoch"], snap))  # ok


class WeightNormLogger(Callback):
    def on_epoch_end(self, trainer, logs):
        norms = {k: v.norm().item() for k, v in trainer.model.state_dict().items()}  # ok
        logs["wnorm"] = sum(norms.values())


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.Adam(model.parameters(), lr=5e-3)

    def fit(self, x, y, xv, yv, epochs=12):
        for epoch in range(epochs):
            self.model.train()
            self.opt.zero_grad()
            F.mse_loss(self.model(x), y).backward()
            self.opt.step()
            with torch.no_grad():
                logs = {"epoch": epoch, "val_loss": F.mse_loss(self.model(xv), yv).item()}
            for cb in self.callbacks:
                cb.on_epoch_end(self, logs)
        for cb in self.callbacks:
            cb.on_train_end(self)


if __name__ == "__main__":
    x, y = torch.randn(64, 5), torch.randn(64, 1)
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
    rb, mem = RestoreBestWeights(), InMemoryCheckpoint()
    Trainer(model, [rb, mem, WeightNormLogger()]).fit(x[:48], y[:48], x[48:], y[48:])
    print("best", rb.best, "snapshots", len(mem.snapshots))
