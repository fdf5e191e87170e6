"""Keras-like callback system around a PyTorch loop."""
import torch
import torch.nn as nn


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, batch, loss):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class LossHistory(Callback):
    def on_train_begin(self, trainer):
        self.losses = []

    def on_batch_end(self, trainer, batch, loss):
        self.losses.append(loss)


class ScalarHistory(Callback):
    def on_train_begin(self, trainer):
        self.losses = []
        self.epochs = {}

    def on_batch_end(self, trainer, batch, loss):
        self.losses.append(loss.item() if torch.is_tensor(loss) else loss)

    def on_epoch_end(self, trainer, epoch, logs):
        self.epochs[epoch] = dict(logs)


class ReduceLROnPlateauCallback(Callback):
    def __init__(self, factor=0.5, patience=1):
        self.factor, self.patience, self.best, self.wait = factor, patience, float("inf"), 0

    def on_epoch_end(self, trainer, epoch, logs):
        if logs["loss"] < self.best:
            self.best, self.wait = logs["loss"], 0
        else:
            self.wait += 1
            if self.wait > self.patience:
                for g in trainer.optimizer.param_groups:
                    g["lr"] *= self.factor


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.loss_fn = nn.BCEWithLogitsLoss()

    def fit(self, batches, epochs=3):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            epoch_loss, n = 0.0, 0
            for b, (x, y) in enumerate(batches):
                self.optimizer.zero_grad()
                loss = self.loss_fn(self.model(x).squeeze(1), y)
                loss.backward()
                self.optimizer.step()
                epoch_loss += loss.item() * len(x)  # ok
                n += len(x)  # ok
                for cb in self.callbacks:
                    cb.on_batch_end(self, b, loss)  # expect: TEN501
            logs = {"loss": epoch_loss / n, "lr": self.optimizer.param_groups[0]["lr"]}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(7, 10), nn.ReLU(), nn.Linear(10, 1))
    batches = [(torch.randn(12, 7), torch.randint(0, 2, (12,)).float()) for _ in range(4)]
    history, scalars = LossHistory(), ScalarHistory()
    Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), [history, scalars, ReduceLROnPlateauCallback()]).fit(batches)
    print(len(history.losses), scalars.epochs[2])
