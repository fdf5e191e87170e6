"""Callbacks receive whatever the engine hands them."""


class Callback:
    def on_batch_end(self, engine, **kw):
        pass

    def on_epoch_end(self, engine, **kw):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, engine, loss=None, **kw):
        self.losses.append(loss)


class OutputStats(Callback):
    def __init__(self):
        self.sum = 0.0
        self.n = 0

    def on_batch_end(self, engine, output=None, **kw):
        self.sum = self.sum + output.mean()
        self.n += 1


class EpochPrinter(Callback):
    def on_epoch_end(self, engine, metrics=None, **kw):
        print(f"[{engine.name}] epoch {engine.epoch}: " + " ".join(f"{k}={v:.4f}" for k, v in metrics.items()))
