"""Keras-like callback objects attached to a hand-written Trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_batch_end(self, step, **logs):
        pass

    def on_epoch_end(self, epoch, logs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, step, **logs):
        self.losses.append(logs["loss"])


class Printer(Callback):
    def __init__(self):
        self.lines = []

    def on_batch_end(self, step, **logs):
        self.lines.append(f"step {step}: loss {logs['loss']:.4f}")


class BestCheckpoint(Callback):
    def __init__(self):
        self.best = float("inf")
        self.best_step = -1
        self.seen = []

    def on_batch_end(self, step, **logs):
        self.seen.append(logs["loss"])
        if logs["loss"] < self.best:
            self.best, self.best_step = logs["loss"], step


class EpochSummary(Callback):
    def __init__(self):
        self.rows = []

    def on_epoch_end(self, epoch, logs):
        self.rows.append(dict(logs, epoch=epoch))


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.history_cb, self.printer_cb, self.ckpt_cb, self.summary_cb = callbacks
        self.step = 0

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            total = 0.0
            for xb, yb in batches:
                loss = F.mse_loss(self.model(xb), yb)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.history_cb.on_batch_end(self.step, loss=loss)  # expect: TEN501
                self.printer_cb.on_batch_end(self.step, loss=loss)  # ok
                self.ckpt_cb.on_batch_end(self.step, loss=loss.item())  # ok
                total += loss.item()
                self.step += 1
            logs = {"loss": total / len(batches)}
            for cb in (self.history_cb, self.printer_cb, self.ckpt_cb, self.summary_cb):
                cb.on_epoch_end(epoch, logs)  # ok


model = nn.Linear(4, 1)
cbs = (LossHistory(), Printer(), BestCheckpoint(), EpochSummary())
batches = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(3)]
Trainer(model, cbs).fit(batches, epochs=2)
print(cbs[1].lines[-1], "| best step", cbs[2].best_step, "| epochs", len(cbs[3].rows))
