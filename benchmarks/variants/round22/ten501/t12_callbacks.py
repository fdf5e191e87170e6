"""Keras-like callbacks that receive a logs dict at the end of every batch."""
import torch
from torch import nn


class Callback:
    def on_batch_end(self, step, logs):
        pass

    def on_epoch_end(self, epoch):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, step, logs):
        self.losses.append(logs["loss"])  # expect: TEN501


class GradNormHistory(Callback):
    def __init__(self):
        self.norms = []

    def on_batch_end(self, step, logs):
        self.norms.append(logs["grad_norm"])  # ok


class EMALoss(Callback):
    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = None

    def on_batch_end(self, step, logs):
        if self.value is None:
            self.value = logs["loss"]
        else:
            self.value = self.decay * self.value + (1 - self.decay) * logs["loss"]  # expect: TEN501


class SafeEMALoss(EMALoss):
    def on_batch_end(self, step, logs):
        v = logs["loss"].item()
        self.value = v if self.value is None else self.decay * self.value + (1 - self.decay) * v  # ok


class EpochCounter(Callback):
    def __init__(self):
        self.epochs = []
        self.steps = 0

    def on_batch_end(self, step, logs):
        self.steps += 1  # ok

    def on_epoch_end(self, epoch):
        self.epochs.append(epoch)  # ok


def fit(model, data, callbacks, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    step = 0
    for epoch in range(epochs):
        for x, y in data:
            loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            gn = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
            opt.step()
            logs = {"loss": loss, "grad_norm": gn}
            for cb in callbacks:
                cb.on_batch_end(step, logs)  # either: TEN501
            step += 1
        for cb in callbacks:
            cb.on_epoch_end(epoch)


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [(torch.randn(16, 4), torch.randint(0, 2, (16,)).float()) for _ in range(5)]
    cbs = [LossHistory(), GradNormHistory(), EMALoss(), SafeEMALoss(), EpochCounter()]
    fit(nn.Linear(4, 1), data, cbs)
    print(len(cbs[0].losses), len(cbs[1].norms), float(cbs[2].value.detach()), round(cbs[3].value, 4), cbs[4].epochs)
