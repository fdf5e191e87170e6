"""A tiny Keras-flavoured fit() with callbacks receiving a `logs` dict."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Callback:
    def on_epoch_begin(self, epoch, logs=None):
        pass

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


class ProgbarLogger(Callback):
    def __init__(self):
        self.seen = 0
        self.totals = {}

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.totals = {}

    def on_batch_end(self, batch, logs=None):
        bs = logs.get("size", 1)
        self.seen += bs
        for k, v in logs.items():
            if k != "size":
                self.totals[k] = self.totals.get(k, 0.0) + v * bs

    def on_epoch_end(self, epoch, logs=None):
        msg = " ".join(f"{k}={float(v) / self.seen:.4f}" for k, v in self.totals.items())
        print(f"epoch {epoch}: {msg}")


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __getattr__(self, name):
        def call(*a, **kw):
            for cb in self.callbacks:
                getattr(cb, name)(*a, **kw)
        return call


class Model:
    def __init__(self, net, lr=0.05):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)

    def fit(self, x, y, epochs, batch_size, callbacks, scalar_logs=False):
        callbacks = CallbackList(callbacks)
        for epoch in range(epochs):
            callbacks.on_epoch_begin(epoch)
            for b, i in enumerate(range(0, len(x), batch_size)):
                xb, yb = x[i:i + batch_size], y[i:i + batch_size]
                pred = self.net(xb)
                loss = ((pred - yb) ** 2).mean()
                mae = (pred - yb).abs().mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                if scalar_logs:
                    logs = {"loss": loss.item(), "mae": mae.item(), "size": len(xb)}
                    callbacks.on_batch_end(b, logs)  # ok
                else:
                    logs = {"loss": loss, "mae": mae, "size": len(xb)}
                    callbacks.on_batch_end(b, logs)  # expect: TEN501
            callbacks.on_epoch_end(epoch)


x = torch.randn(80, 6)
y = torch.sin(x[:, :1]) + 0.1 * x[:, 1:2]
h1, h2 = History(), History()
Model(nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))).fit(x, y, 2, 16, [h1, ProgbarLogger()])
Model(nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))).fit(x, y, 2, 16, [h2, ProgbarLogger()], scalar_logs=True)
print("history lengths", len(h1.history["loss"]), len(h2.history["loss"]))
