"""Keras-style callbacks list that receives a logs dict at the end of every batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Callback:
    def on_batch_end(self, batch, logs):
        pass

    def on_epoch_end(self, epoch, logs):
        pass


class History(Callback):
    def __init__(self):
        self.batches = []

    def on_batch_end(self, batch, logs):
        self.batches.append(logs)


class ProgbarLogger(Callback):
    def __init__(self):
        self.totals = {}
        self.seen = 0

    def on_batch_end(self, batch, logs):
        self.seen += 1
        for k, v in logs.items():
            self.totals[k] = self.totals.get(k, 0) + v


class LRLogger(Callback):
    def __init__(self, opt):
        self.opt = opt
        self.lrs = []

    def on_epoch_end(self, epoch, logs):
        self.lrs.append(self.opt.param_groups[0]["lr"])


class Model:
    def __init__(self, detach_logs):
        self.net = nn.Sequential(nn.Linear(9, 18), nn.ReLU(), nn.Linear(18, 2))
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        self.detach_logs = detach_logs

    def fit(self, data, epochs, callbacks):
        for epoch in range(epochs):
            for batch, (x, y) in enumerate(data):
                out = self.net(x)
                loss = F.cross_entropy(out, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                if self.detach_logs:
                    logs = {"loss": loss.item(), "acc": (out.argmax(1) == y).float().mean().item()}
                    for cb in callbacks:
                        cb.on_batch_end(batch, logs)  # ok
                else:
                    logs = {"loss": loss, "max_prob": out.softmax(-1).max(-1).values.mean()}
                    for cb in callbacks:
                        cb.on_batch_end(batch, logs)  # expect: TEN501
            for cb in callbacks:
                cb.on_epoch_end(epoch, {"epoch": epoch})  # ok


data = [(torch.randn(6, 9), torch.randint(0, 2, (6,))) for _ in range(3)]
for detach in (False, True):
    m = Model(detach)
    cbs = [History(), ProgbarLogger(), LRLogger(m.opt)]
    m.fit(data, 2, cbs)
    print(detach, len(cbs[0].batches), {k: float(v) for k, v in cbs[1].totals.items()})
