"""A tiny Keras-flavoured fit() loop with callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Callback:
    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass


class History(Callback):
    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epoch.append(epoch)
        for k, v in logs.items():
            self.history.setdefault(k, []).append(v)


class BatchHistory(Callback):
    """Keeps every batch's logs so that learning curves can be plotted later."""

    def __init__(self):
        self.batch_logs = []

    def on_batch_end(self, batch, logs=None):
        self.batch_logs.append(dict(logs or {}))


class ProgbarLogger(Callback):
    def __init__(self, every=4):
        self.every = every

    def on_batch_end(self, batch, logs=None):
        if batch % self.every == 0:
            print(" - ".join(f"{k}: {float(v):.4f}" for k, v in (logs or {}).items()))


class CallbackList:
    def __init__(self, callbacks, model):
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            cb.set_model(model)

    def on_train_begin(self, logs=None):
        for cb in self.callbacks:
            cb.on_train_begin(logs)

    def on_batch_end(self, batch, logs=None):
        for cb in self.callbacks:
            cb.on_batch_end(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        for cb in self.callbacks:
            cb.on_epoch_end(epoch, logs)


class Sequential(nn.Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = nn.Sequential(*layers)
        self.history = None

    def forward(self, x):
        return self.layers(x)

    def compile(self, optimizer, loss):
        self.optimizer = optimizer
        self.loss_fn = loss

    def fit(self, x, y, batch_size=32, epochs=1, validation_data=None, callbacks=None, verbose=True):
        self.history = History()
        cbs = CallbackList([self.history] + list(callbacks or []), self)
        progbar = ProgbarLogger(every=3)
        cbs.on_train_begin()
        n = x.shape[0]
        for epoch in range(epochs):
            perm = torch.randperm(n)
            seen_loss = 0.0
            steps = 0
            for step, start in enumerate(range(0, n, batch_size)):
                idx = perm[start:start + batch_size]
                xb, yb = x[idx], y[idx]
                self.optimizer.zero_grad()
                logits = self(xb)
                loss = self.loss_fn(logits, yb)
                loss.backward()
                self.optimizer.step()

                acc = (logits.argmax(-1) == yb).float().mean()
                logs = {"loss": loss, "accuracy": acc}
                cbs.on_batch_end(step, logs)  # expect: TEN501
                if verbose:
                    progbar.on_batch_end(step, {"loss": loss, "accuracy": acc})  # ok
                seen_loss += loss.item()  # ok
                steps += 1

            epoch_logs = {"loss": seen_loss / steps}
            if validation_data is not None:
                with torch.no_grad():
                    vx, vy = validation_data
                    v_logits = self(vx)
                    epoch_logs["val_loss"] = self.loss_fn(v_logits, vy)
                    epoch_logs["val_accuracy"] = (v_logits.argmax(-1) == vy).float().mean()
            cbs.on_epoch_end(epoch, epoch_logs)  # ok
        return self.history


if __name__ == "__main__":
    x = torch.randn(200, 10)
    y = (x[:, 0] + x[:, 1] > 0).long() + (x[:, 2] > 1).long()
    model = Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    model.compile(torch.optim.Adam(model.parameters(), lr=1e-2), F.cross_entropy)
    recorder = BatchHistory()
    hist = model.fit(x[:160], y[:160], batch_size=32, epochs=3,
                     validation_data=(x[160:], y[160:]), callbacks=[recorder])
    print({k: [round(float(v), 3) for v in vs] for k, vs in hist.history.items()})
    print("recorded batches:", len(recorder.batch_logs))
