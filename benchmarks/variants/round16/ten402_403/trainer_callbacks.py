import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_epoch_end(self, trainer):
        pass

    def on_train_end(self, trainer):
        pass


class RestoreBestWeights(Callback):
    def __init__(self, monitor="val_loss"):
        self.monitor = monitor
        self.best = float("inf")
        self.snapshot = None

    def on_epoch_end(self, trainer):
        value = trainer.logs[self.monitor]
        if value < self.best:
            self.best = value
            self.snapshot = trainer.model.state_dict().copy()  # expect: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.snapshot)
        trainer.logs["restored_from"] = self.best


class RestoreBestWeightsCloned(RestoreBestWeights):
    def on_epoch_end(self, trainer):
        value = trainer.logs[self.monitor]
        if value < self.best:
            self.best = value
            self.snapshot = {k: t.clone() for k, t in trainer.model.state_dict().items()}  # ok


class PeriodicExport(Callback):
    def __init__(self, every=5):
        self.every = every
        self.blobs = []

    def on_epoch_end(self, trainer):
        if trainer.epoch % self.every == 0:
            state = trainer.model.state_dict()  # ok
            buf = io.BytesIO()
            torch.save(state, buf)
            self.blobs.append(buf.getvalue())


class Trainer:
    def __init__(self, model, callbacks, lr=0.05):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        self.logs = {}
        self.epoch = 0

    def fit(self, train, val, epochs):
        xtr, ytr = train
        xva, yva = val
        for self.epoch in range(epochs):
            self.model.train()
            for i in range(0, len(xtr), 25):
                self.opt.zero_grad()
                F.cross_entropy(self.model(xtr[i:i + 25]), ytr[i:i + 25]).backward()
                self.opt.step()
            self.model.eval()
            with torch.no_grad():
                self.logs["val_loss"] = F.cross_entropy(self.model(xva), yva).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self)
        for cb in self.callbacks:
            cb.on_train_end(self)
        with torch.no_grad():
            return F.cross_entropy(self.model(xva), yva).item()


def spirals(n):
    t = torch.rand(n) * 3 + 0.5
    cls = torch.randint(0, 2, (n,))
    ang = t * 2.5 + cls * 3.14159
    x = torch.stack([t * torch.cos(ang), t * torch.sin(ang)], 1) + 0.6 * torch.randn(n, 2)
    return x, cls


def main():
    train, val = spirals(300), spirals(150)
    for cb_type in (RestoreBestWeights, RestoreBestWeightsCloned):
        torch.manual_seed(5)
        model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
        best_cb, export_cb = cb_type(), PeriodicExport()
        final = Trainer(model, [best_cb, export_cb]).fit(train, val, epochs=30)
        print(cb_type.__name__, "best %.4f, loss after restore %.4f, %d exports"
              % (best_cb.best, final, len(export_cb.blobs)))


if __name__ == "__main__":
    main()
