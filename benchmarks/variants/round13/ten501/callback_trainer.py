"""Keras-like trainer that fires callbacks with keyword logs."""
import time
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_batch_end(self, trainer, **logs):
        pass

    def on_epoch_end(self, trainer, **logs):
        pass


class History(Callback):
    def __init__(self):
        self.batch_logs = defaultdict(list)
        self.epoch_logs = defaultdict(list)

    def on_batch_end(self, trainer, **logs):
        for k, v in logs.items():
            self.batch_logs[k].append(v)

    def on_epoch_end(self, trainer, **logs):
        for k, v in logs.items():
            self.epoch_logs[k].append(v)


class PrintEvery(Callback):
    def __init__(self, every=2):
        self.every = every

    def on_batch_end(self, trainer, **logs):
        if logs["batch"] % self.every == 0:
            print(f"  batch {logs['batch']} loss {float(logs['loss']):.4f}")


class Trainer:
    def __init__(self, model, callbacks=(), lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.callbacks = list(callbacks)
        self.epoch_records = []
        self.batch_times = []
        self.last_batch = None

    def _fire(self, hook, **logs):
        for cb in self.callbacks:
            getattr(cb, hook)(self, **logs)

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            epoch_loss, seen = 0.0, 0
            for i, (x, y) in enumerate(loader):
                t0 = time.perf_counter()
                out = self.model(x)
                loss = F.cross_entropy(out, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self._fire("on_batch_end", batch=i, loss=loss, logits=out)  # expect: TEN501
                self.batch_times.append(time.perf_counter() - t0)  # ok
                self.last_batch = {"x": x, "logits": out}  # either
                epoch_loss += loss.item() * len(y)  # ok
                seen += len(y)
            self._fire("on_epoch_end", epoch=epoch, loss=epoch_loss / seen)  # ok
            self.epoch_records.append({"epoch": epoch, "final_loss": loss})  # expect: TEN501


def main():
    torch.manual_seed(0)
    loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]
    hist = History()
    trainer = Trainer(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3)), [hist, PrintEvery()])
    trainer.fit(loader, epochs=3)
    print(hist.epoch_logs["loss"])


if __name__ == "__main__":
    main()
