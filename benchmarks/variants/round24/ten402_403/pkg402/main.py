"""python -m pkg402.main"""
import torch
import torch.nn as nn

from .callbacks import BestCheckpoint, BestCheckpointBytes, DriftLogger, WarmStartCache

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, callbacks, lr=0.2):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def fit(self, x, y, xv, yv, epochs=10):
        for epoch in range(epochs):
            loss = nn.functional.mse_loss(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            with torch.no_grad():
                val = nn.functional.mse_loss(self.model(xv), yv).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, val)
        for cb in self.callbacks:
            cb.on_fit_end(self)


def data():
    w = torch.randn(5, 1)
    x = torch.randn(30, 5)
    xv = torch.randn(30, 5) * 2
    return x, x @ w + torch.randn(30, 1), xv, xv @ w


def main():
    x, y, xv, yv = data()
    for cb_cls in (BestCheckpoint, BestCheckpointBytes):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
        best = cb_cls()
        drift_live, drift_safe, warm = DriftLogger(False), DriftLogger(True), WarmStartCache()
        Trainer(model, [drift_live, drift_safe, warm, best]).fit(x, y, xv, yv)
        with torch.no_grad():
            restored = nn.functional.mse_loss(model(xv), yv).item()
        model.load_state_dict(warm.cache["epoch0"])
        with torch.no_grad():
            warm_loss = nn.functional.mse_loss(model(xv), yv).item()
        print(f"{cb_cls.__name__}: best {best.best:.6f} restored {restored:.6f} warm {warm_loss:.6f}")
        print("  drift live", [round(d, 5) for d in drift_live.drift[-3:]])
        print("  drift safe", [round(d, 5) for d in drift_safe.drift[-3:]])


if __name__ == "__main__":
    main()
