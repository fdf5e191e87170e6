"""Two best-checkpoint callbacks attached to a tiny trainer loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Callback:
    def on_epoch_end(self, trainer, metrics):
        pass


class KeepBestShallow(Callback):
    def __init__(self):
        self.best_acc = -1.0
        self.weights = None

    def on_epoch_end(self, trainer, metrics):
        if metrics["acc"] > self.best_acc:
            self.best_acc = metrics["acc"]
            self.weights = {k: v for k, v in trainer.model.state_dict().items()}  # expect: TEN402


class KeepBestCloned(Callback):
    def __init__(self):
        self.best_acc = -1.0
        self.weights = None

    def on_epoch_end(self, trainer, metrics):
        if metrics["acc"] > self.best_acc:
            self.best_acc = metrics["acc"]
            self.weights = {k: v.clone() for k, v in trainer.model.state_dict().items()}  # ok


class Trainer:
    def __init__(self, model, callbacks, lr=0.5):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def evaluate(self, X, y):
        with torch.no_grad():
            return (self.model(X).argmax(1) == y).float().mean().item()

    def fit(self, X, y, Xv, yv, epochs):
        for ep in range(epochs):
            for i in range(0, len(X), 16):
                self.opt.zero_grad()
                F.cross_entropy(self.model(X[i:i + 16]), y[i:i + 16]).backward()
                self.opt.step()
            m = {"acc": self.evaluate(Xv, yv)}
            print(f"ep {ep} acc {m['acc']:.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, m)


X = torch.randn(160, 6)
y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
y[::7] = 1 - y[::7]
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
shallow, cloned = KeepBestShallow(), KeepBestCloned()
tr = Trainer(model, [shallow, cloned], lr=0.8)
tr.fit(X[:120], y[:120], X[120:], y[120:], epochs=12)

for name, cb in [("shallow", shallow), ("cloned", cloned)]:
    probe = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
    probe.load_state_dict(cb.weights)
    with torch.no_grad():
        acc = (probe(X[120:]).argmax(1) == y[120:]).float().mean().item()
        s = sum(v.sum() for v in cb.weights.values()).item()
    print(f"{name}: recorded {cb.best_acc:.4f} reloaded {acc:.4f} checksum {s:.5f}")
