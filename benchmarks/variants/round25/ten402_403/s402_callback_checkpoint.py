"""Keras-style callbacks: an EarlyStopping-like callback and an in-memory checkpoint."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class RestoreBestWeights(Callback):
    def __init__(self, monitor="val_loss"):
        self.monitor = monitor
        self.best = float("inf")
        self.best_weights = None

    def on_epoch_end(self, trainer, epoch, logs):
        if logs[self.monitor] < self.best:
            self.best = logs[self.monitor]
            self.best_weights = {k: v for k, v in trainer.model.state_dict().items()}  # expect: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.best_weights)


class MemoryCheckpoint(Callback):
    def __init__(self):
        self.snapshots = {}

    def on_epoch_end(self, trainer, epoch, logs):
        if epoch % 3 == 0:
            self.snapshots[epoch] = {k: v.detach().clone() for k, v in trainer.model.state_dict().items()}  # ok


class Loop:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.Adam(model.parameters(), lr=0.08)

    def run(self, xs, ys, vx, vy, epochs=10):
        for ep in range(epochs):
            self.model.train()
            self.opt.zero_grad()
            F.cross_entropy(self.model(xs), ys).backward()
            self.opt.step()
            with torch.no_grad():
                vl = F.cross_entropy(self.model(vx), vy).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, ep, {"val_loss": vl})
        for cb in self.callbacks:
            cb.on_train_end(self)


torch.manual_seed(0)
xs, ys = torch.randn(40, 5), torch.randint(0, 3, (40,))
vx, vy = torch.randn(40, 5), torch.randint(0, 3, (40,))
net = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 3))
rb, mc = RestoreBestWeights(), MemoryCheckpoint()
Loop(net, [rb, mc]).run(xs, ys, vx, vy)
with torch.no_grad():
    print("best", round(rb.best, 5), "after restore", round(F.cross_entropy(net(vx), vy).item(), 5))
    for ep, sd in mc.snapshots.items():
        print("snap", ep, round(sum(t.abs().sum().item() for t in sd.values()), 4))
