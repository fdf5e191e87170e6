"""A small Keras-like Trainer with callbacks (history, progress printing,
early stopping) for a tabular regression model."""
import math

import torch
import torch.nn as nn


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, batch_idx, loss):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class LossHistory(Callback):
    def on_train_begin(self, trainer):
        self.batch_losses = []
        self.epoch_logs = []

    def on_batch_end(self, trainer, batch_idx, loss):
        self.batch_losses.append(loss)

    def on_epoch_end(self, trainer, epoch, logs):
        self.epoch_logs.append(dict(logs))


class ProgressPrinter(Callback):
    def __init__(self, every=4):
        self.every = every

    def on_batch_end(self, trainer, batch_idx, loss):
        if batch_idx % self.every == 0:
            print(f"  batch {batch_idx:3d}  loss {loss.item():.4f}")


class EarlyStopping(Callback):
    def __init__(self, patience=2, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best = math.inf
        self.wait = 0

    def on_epoch_end(self, trainer, epoch, logs):
        current = logs["val_loss"]
        if current < self.best - self.min_delta:
            self.best, self.wait = current, 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.stop_training = True


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.history = LossHistory()
        self.printer = ProgressPrinter(every=4)
        self.callbacks = [self.history, self.printer, *callbacks]
        self.stop_training = False

    def _step(self, x, y):
        self.model.train()
        pred = self.model(x)
        loss = self.loss_fn(pred, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    def _validate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for x, y in loader:
                total += self.loss_fn(self.model(x), y) * len(x)  # ok
                n += len(x)
        return (total / n).item()

    def fit(self, train_loader, val_loader, epochs=5):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            running = 0.0
            for batch_idx, (x, y) in enumerate(train_loader):
                loss = self._step(x, y)
                self.history.on_batch_end(self, batch_idx, loss)  # expect: TEN501
                self.printer.on_batch_end(self, batch_idx, loss)  # ok
                running += loss.item()
            logs = {"loss": running / len(train_loader), "val_loss": self._validate(val_loader)}
            print(f"epoch {epoch}: {logs}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
            if self.stop_training:
                print("early stopping")
                break
        return self.history


def make_loader(n, seed, bs=16):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 5, generator=g)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(n, 1, generator=g)
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, n, bs)]


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-2), nn.MSELoss(),
                      callbacks=[EarlyStopping(patience=2)])
    history = trainer.fit(make_loader(96, 0), make_loader(32, 1), epochs=4)
    print("recorded", len(history.batch_losses), "batch losses")


if __name__ == "__main__":
    main()
