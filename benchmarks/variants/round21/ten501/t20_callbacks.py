"""Keras-like callback system: a History callback keeps whatever the trainer puts in `logs`."""
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_train_batch_end(self, batch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def on_train_batch_end(self, batch, logs=None):
        for cb in self.callbacks:
            cb.on_train_batch_end(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        for cb in self.callbacks:
            cb.on_epoch_end(epoch, logs)


class History(Callback):
    def __init__(self):
        self.batch_history = defaultdict(list)
        self.epoch_history = defaultdict(list)

    def on_train_batch_end(self, batch, logs=None):
        for k, v in (logs or {}).items():
            self.batch_history[k].append(v)

    def on_epoch_end(self, epoch, logs=None):
        for k, v in (logs or {}).items():
            self.epoch_history[k].append(v)


class LossSpikeDetector(Callback):
    def __init__(self, window=10, factor=3.0):
        self.window = deque(maxlen=window)
        self.factor = factor
        self.spikes = 0

    def on_train_batch_end(self, batch, logs=None):
        loss = logs["loss"]
        if len(self.window) == self.window.maxlen and float(loss) > self.factor * sum(self.window) / len(self.window):
            self.spikes += 1
        self.window.append(float(loss))  # ok


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.callbacks = CallbackList(callbacks)

    def fit(self, data, epochs):
        for epoch in range(epochs):
            total, n = 0.0, 0
            for step, (x, y) in enumerate(data):
                logits = self.model(x)
                loss = F.cross_entropy(logits, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                acc = (logits.argmax(1) == y).float().mean()
                logs = {"loss": loss, "acc": acc}
                self.callbacks.on_train_batch_end(step, logs)  # expect: TEN501
                total += loss.item() * len(x)
                n += len(x)
            epoch_logs = {"loss": total / n}
            self.callbacks.on_epoch_end(epoch, epoch_logs)  # ok


class SafeTrainer(Trainer):
    def fit(self, data, epochs):
        for epoch in range(epochs):
            for step, (x, y) in enumerate(data):
                logits = self.model(x)
                loss = F.cross_entropy(logits, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                logs = {"loss": loss.item(), "acc": (logits.argmax(1) == y).float().mean().item()}
                self.callbacks.on_train_batch_end(step, logs)  # ok
            self.callbacks.on_epoch_end(epoch, {"loss": logs["loss"]})  # ok


x = torch.randn(256, 10)
y = (x[:, :2].sum(1) > 0).long()
data = [(x[i:i + 32], y[i:i + 32]) for i in range(0, 256, 32)]

history, spikes = History(), LossSpikeDetector()
Trainer(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)), [history, spikes]).fit(data, 3)
history2, spikes2 = History(), LossSpikeDetector()
SafeTrainer(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)), [history2, spikes2]).fit(data, 3)

print("epoch losses:", [round(v, 4) for v in history.epoch_history["loss"]])
print("batch loss mean:", torch.stack(history.batch_history["loss"]).mean().item(),
      "safe:", sum(history2.batch_history["loss"]) / len(history2.batch_history["loss"]))
print("spikes:", spikes.spikes, spikes2.spikes, "final acc:", float(history.batch_history["acc"][-1]))
