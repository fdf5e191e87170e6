"""Minimal trainer with a callback system and a best-model callback."""
import torch
import torch.nn as nn


class Callback:
    def on_train_begin(self, trainer): pass
    def on_epoch_end(self, trainer, logs): pass
    def on_train_end(self, trainer): pass


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.callbacks = list(callbacks)
        self.epoch = 0

    def weights(self):
        return self.model.state_dict()

    def set_weights(self, state):
        self.model.load_state_dict(state)

    def _emit(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, train_data, val_data, epochs):
        self._emit("on_train_begin")
        for self.epoch in range(epochs):
            self.model.train()
            for x, y in train_data:
                self.optimizer.zero_grad()
                self.loss_fn(self.model(x), y).backward()
                self.optimizer.step()
            self.model.eval()
            with torch.no_grad():
                val = sum(self.loss_fn(self.model(x), y).item() for x, y in val_data)
            self._emit("on_epoch_end", {"val_loss": val / len(val_data)})
        self._emit("on_train_end")


class RestoreBestWeights(Callback):
    def __init__(self, monitor="val_loss"):
        self.monitor = monitor
        self.best = float("inf")
        self.best_weights = None
        self.best_epoch = None

    def on_epoch_end(self, trainer, logs):
        current = logs[self.monitor]
        if current < self.best:
            self.best = current
            self.best_epoch = trainer.epoch
            self.best_weights = trainer.weights()  # expect: TEN402

    def on_train_end(self, trainer):
        if self.best_weights is not None:
            print(f"restoring weights from epoch {self.best_epoch}")
            trainer.set_weights(self.best_weights)


class History(Callback):
    def __init__(self):
        self.rows = []

    def on_epoch_end(self, trainer, logs):
        self.rows.append(dict(logs, epoch=trainer.epoch))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(5, 1)
    data = [(torch.randn(10, 5), torch.randn(10, 1)) for _ in range(3)]
    hist = History()
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), nn.MSELoss(),
                callbacks=[RestoreBestWeights(), hist])
    t.fit(data, data[:1], epochs=5)
    print(hist.rows[-1])
