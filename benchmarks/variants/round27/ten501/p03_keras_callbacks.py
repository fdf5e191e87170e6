"""A Keras-like fit() with a CallbackList; callbacks receive a `logs` dict per batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Callback:
    def on_train_begin(self, logs=None): pass
    def on_batch_end(self, batch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass


class History(Callback):
    def on_train_begin(self, logs=None):
        self.history = {}

    def on_batch_end(self, batch, logs=None):
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class ProgbarLogger(Callback):
    def __init__(self):
        self.lines = []

    def on_batch_end(self, batch, logs=None):
        self.lines.append(" - ".join(f"{k}: {float(v):.4f}" for k, v in logs.items()))


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __getattr__(self, hook):
        def call_all(*args, **kwargs):
            for cb in self.callbacks:
                getattr(cb, hook)(*args, **kwargs)
        return call_all


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 1))

    def forward(self, x):
        return self.net(x)

    def fit(self, x, y, epochs, callbacks, batch_size=16):
        opt = torch.optim.Adam(self.parameters(), lr=1e-2)
        history = History()
        cbs = CallbackList([history] + callbacks)
        raw_cbs = CallbackList([History()])
        cbs.on_train_begin()
        raw_cbs.on_train_begin()
        for epoch in range(epochs):
            for b in range(0, len(x), batch_size):
                xb, yb = x[b:b + batch_size], y[b:b + batch_size]
                out = self(xb)
                loss = nn.functional.mse_loss(out, yb)
                mae = (out - yb).abs().mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                logs = {"loss": loss.item(), "mae": mae.item()}
                cbs.on_batch_end(b // batch_size, logs)  # ok
                raw_cbs.on_batch_end(b // batch_size, {"loss": loss, "mae": mae})  # expect: TEN501
            cbs.on_epoch_end(epoch, logs)
        return history, raw_cbs.callbacks[0]


x = torch.randn(64, 6)
y = (x[:, :1] - 2 * x[:, 1:2]).clone()
net = Model()
printer = ProgbarLogger()
hist, raw = net.fit(x, y, epochs=3, callbacks=[printer])
print("history loss", [round(v, 4) for v in hist.history["loss"][-3:]])
print("raw mae", [round(v.item(), 4) for v in raw.history["mae"][-3:]])
print(printer.lines[-1])
