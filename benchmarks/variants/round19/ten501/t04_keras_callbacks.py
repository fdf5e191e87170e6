"""Keras-like callback list driven by a fit() loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_batch_end(self, step, logs):
        pass

    def on_epoch_end(self, epoch, logs):
        pass


class History(Callback):
    def __init__(self):
        self.batch_logs = []
        self.epoch_logs = {}

    def on_batch_end(self, step, logs):
        self.batch_logs.append(dict(logs))

    def on_epoch_end(self, epoch, logs):
        for k, v in logs.items():
            self.epoch_logs.setdefault(k, []).append(v)


class EarlyStopping(Callback):
    def __init__(self, patience=2):
        self.best = float("inf")
        self.wait = 0
        self.patience = patience
        self.stop = False

    def on_epoch_end(self, epoch, logs):
        cur = logs["val_loss"]
        if cur < self.best:
            self.best = cur
            self.wait = 0
        else:
            self.wait += 1
            self.stop = self.wait >= self.patience


class CallbackList:
    def __init__(self, cbs):
        self.cbs = list(cbs)

    def on_batch_end(self, step, logs):
        for cb in self.cbs:
            cb.on_batch_end(step, logs)

    def on_epoch_end(self, epoch, logs):
        for cb in self.cbs:
            cb.on_epoch_end(epoch, logs)


def fit(model, data, val, epochs, cbs, raw_cbs):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step = 0
    for epoch in range(epochs):
        for x, y in data:
            loss = F.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            cbs.on_batch_end(step, {"loss": loss.item(), "lr": 0.05})  # ok
            raw_cbs.on_batch_end(step, {"loss": loss})  # expect: TEN501
            step += 1
        val_loss = F.mse_loss(model(val[0]), val[1])
        with torch.no_grad():
            val_loss_ng = F.mse_loss(model(val[0]), val[1])
        cbs.on_epoch_end(epoch, {"val_loss": val_loss.item()})  # ok
        raw_cbs.on_epoch_end(epoch, {"val_loss": val_loss})  # expect: TEN501
        cbs.on_epoch_end(epoch, {"val_loss": val_loss_ng})  # ok


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    val = (torch.randn(8, 3), torch.randn(8, 1))
    h1, h2, es = History(), History(), EarlyStopping()
    fit(nn.Linear(3, 1), data, val, 3, CallbackList([h1, es]), CallbackList([h2]))
    print(len(h1.batch_logs), len(h2.batch_logs), h1.epoch_logs["val_loss"][-1], float(h2.epoch_logs["val_loss"][-1]), float(es.best))


if __name__ == "__main__":
    main()
