"""Training loop with a Keras-style callback list dispatched by hook name."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, step, **logs):
        pass

    def on_validation_end(self, trainer, val_loss):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class LossHistory(Callback):
    def on_train_begin(self, trainer):
        self.batch_losses = []
        self.epoch_logs = []

    def on_batch_end(self, trainer, step, **logs):
        self.batch_losses.append(logs["loss"])

    def on_epoch_end(self, trainer, epoch, logs):
        self.epoch_logs.append(dict(logs))


class GradNormMonitor(Callback):
    def on_train_begin(self, trainer):
        self.norms = []

    def on_batch_end(self, trainer, step, **logs):
        sq = 0.0
        for p in trainer.model.parameters():
            if p.grad is not None:
                sq += p.grad.norm().item() ** 2
        self.norms.append(sq ** 0.5)


class EarlyStopper(Callback):
    def __init__(self, patience=2):
        self.patience = patience
        self.scores = []

    def on_validation_end(self, trainer, val_loss):
        self.scores.append(val_loss)
        best = min(self.scores)
        trainer.stop = len(self.scores) - self.scores.index(best) > self.patience


class CallbackList:
    def __init__(self, callbacks):
        self.cbs = list(callbacks)

    def fire(self, hook, *args, **kwargs):
        for cb in self.cbs:
            getattr(cb, hook)(*args, **kwargs)


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.callbacks = CallbackList(callbacks)
        self.stop = False

    def fit(self, data, val, epochs=4):
        self.callbacks.fire("on_train_begin", self)
        step = 0
        for epoch in range(epochs):
            epoch_loss, n = 0.0, 0
            for x, y in data:
                out = self.model(x)
                loss = F.mse_loss(out, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.callbacks.fire("on_batch_end", self, step, loss=loss, logits=out)  # expect: TEN501
                epoch_loss += loss.item()  # ok
                n += 1
                step += 1
            with torch.no_grad():
                val_loss = sum(F.mse_loss(self.model(x), y) for x, y in val) / len(val)
            self.callbacks.fire("on_validation_end", self, val_loss=val_loss)  # ok
            self.callbacks.fire("on_epoch_end", self, epoch, {"loss": epoch_loss / n, "val": val_loss.item()})  # ok
            if self.stop:
                break


if __name__ == "__main__":
    torch.manual_seed(0)
    w = torch.randn(6, 1)
    xs = torch.randn(80, 6)
    ys = xs @ w + 0.1 * torch.randn(80, 1)
    data = [(xs[i:i + 16], ys[i:i + 16]) for i in range(0, 64, 16)]
    val = [(xs[64:], ys[64:])]
    history, gnm, stopper = LossHistory(), GradNormMonitor(), EarlyStopper()
    Trainer(nn.Linear(6, 1), [history, gnm, stopper]).fit(data, val)
    print(len(history.batch_losses), "batches;", [round(d["val"], 4) for d in history.epoch_logs])
    print("max grad norm", round(max(gnm.norms), 3))
