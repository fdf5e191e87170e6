import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class ModelCheckpoint(Callback):
    def __init__(self, monitor="val_acc", mode="max"):
        self.monitor = monitor
        self.mode = mode
        self.best = None
        self.weights = None

    def _better(self, v):
        if self.best is None:
            return True
        return v > self.best if self.mode == "max" else v < self.best

    def on_epoch_end(self, trainer, epoch, logs):
        v = logs[self.monitor]
        if self._better(v):
            self.best = v
            self.weights = {k: v for k, v in trainer.model.state_dict().items()}  # expect: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.weights)


class WeightDrift(Callback):
    def on_train_begin(self, trainer):
        self.start = {k: t.clone() for k, t in trainer.model.state_dict().items()}  # ok

    def on_train_end(self, trainer):
        drift = sum((trainer.model.state_dict()[k] - t).pow(2).sum() for k, t in self.start.items())
        print(f"weight drift from start {drift.sqrt().item():.6f}")


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.Adam(model.parameters(), lr=0.05)

    def fit(self, xtr, ytr, xva, yva, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for ep in range(epochs):
            self.opt.zero_grad()
            F.cross_entropy(self.model(xtr), ytr).backward()
            self.opt.step()
            with torch.no_grad():
                acc = (self.model(xva).argmax(1) == yva).float().mean().item()
                vloss = F.cross_entropy(self.model(xva), yva).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, ep, {"val_acc": acc, "val_loss": vloss})
        for cb in self.callbacks:
            cb.on_train_end(self)


xtr = torch.randn(40, 6)
ytr = torch.randint(0, 3, (40,))
xva = torch.randn(60, 6)
yva = (xva[:, 0] > 0).long() + (xva[:, 1] > 1).long()
net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
ckpt = ModelCheckpoint(monitor="val_loss", mode="min")
t = Trainer(net, [ckpt, WeightDrift()])
t.fit(xtr, ytr, xva, yva, epochs=25)
with torch.no_grad():
    print(f"best val_loss {ckpt.best:.6f}")
    print(f"val_loss of restored model {F.cross_entropy(net(xva), yva).item():.6f}")
