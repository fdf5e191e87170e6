"""Keras-like callbacks receiving a `logs` dict at the end of each batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_batch_end(self, step, logs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, step, logs):
        self.losses.append(logs["loss"])


class PrintEvery(Callback):
    def __init__(self, every):
        self.every = every
        self.printed = []

    def on_batch_end(self, step, logs):
        if step % self.every == 0:
            self.printed.append((step, logs["loss"]))


class Fitter:
    def __init__(self, model, opt, callbacks):
        self.model = model
        self.opt = opt
        self.callbacks = callbacks
        self.raw_history = LossHistory()
        self.scalar_history = LossHistory()

    def fit(self, xs, ys, steps):
        for step in range(steps):
            pred = self.model(xs)
            loss = ((pred - ys) ** 2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            logs = {"loss": loss, "step": step}
            for cb in self.callbacks:
                cb.on_batch_end(step, logs)  # expect: TEN501
            self.raw_history.on_batch_end(step, {"loss": pred.sum()})  # expect: TEN501
            self.scalar_history.on_batch_end(step, {"loss": loss.item()})  # ok
        return self


model = nn.Linear(4, 1)
hist = LossHistory()
printer = PrintEvery(3)
xs, ys = torch.randn(32, 4), torch.randn(32, 1)
f = Fitter(model, torch.optim.SGD(model.parameters(), lr=0.1), [hist, printer]).fit(xs, ys, 10)
print("hist", len(hist.losses), float(hist.losses[-1]))
print("printed", [(s, round(float(v), 4)) for s, v in printer.printed])
print("scalar", f.scalar_history.losses[:3], float(f.raw_history.losses[-1]))
