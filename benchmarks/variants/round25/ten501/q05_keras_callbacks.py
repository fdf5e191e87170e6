"""Keras-like callback list receiving a logs dict every batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Callback:
    def on_batch_end(self, batch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass


class History(Callback):
    def __init__(self):
        self.history = {}

    def on_batch_end(self, batch, logs=None):
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class PrintLoss(Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, {k: round(float(v), 4) for k, v in logs.items()})


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def on_batch_end(self, batch, logs=None):
        for cb in self.callbacks:
            cb.on_batch_end(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        for cb in self.callbacks:
            cb.on_epoch_end(epoch, logs)


def fit(model, x, y, epochs, callbacks, callbacks_clean):
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for b, (xb, yb) in enumerate(zip(x.split(20), y.split(20))):
            logits = model(xb).squeeze(1)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            logs = {"loss": loss, "mean_logit": logits.mean()}
            callbacks.on_batch_end(b, logs)  # expect: TEN501
            callbacks_clean.on_batch_end(b, {k: v.item() for k, v in logs.items()})  # ok
        callbacks.on_epoch_end(epoch, {"loss": loss.item()})


if __name__ == "__main__":
    x = torch.randn(100, 4)
    y = (x.sum(1) > 0).float()
    hist, hist_clean = History(), History()
    fit(nn.Linear(4, 1), x, y, 3, CallbackList([hist, PrintLoss()]), CallbackList([hist_clean]))
    print(len(hist.history["loss"]), sum(hist_clean.history["loss"]) / len(hist_clean.history["loss"]))
