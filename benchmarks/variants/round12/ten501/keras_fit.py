"""A Keras-like `fit`/`evaluate` API on top of nn.Module."""
import torch
import torch.nn as nn


class KerasModule(nn.Module):
    def compile(self, optimizer, loss_fn):
        self.optimizer = optimizer
        self.loss_fn = loss_fn

    def train_on_batch(self, x, y):
        self.train()
        self.optimizer.zero_grad()
        y_pred = self(x)
        loss = self.loss_fn(y_pred, y)
        loss.backward()
        self.optimizer.step()
        return loss

    def fit(self, train_loader, epochs, val_loader=None, verbose=True):
        history = {"loss": [], "val_loss": [], "lr": [], "batch_loss": []}
        for epoch in range(epochs):
            self.train()
            epoch_loss = 0.0
            for x, y in train_loader:
                self.optimizer.zero_grad()
                y_pred = self(x)
                loss = self.loss_fn(y_pred, y)
                loss.backward()
                self.optimizer.step()
                epoch_loss += loss.data  # ok
                history["batch_loss"].append(loss)  # expect: TEN501
            history["loss"].append(epoch_loss / len(train_loader))  # ok
            history["lr"].append(self.optimizer.param_groups[0]["lr"])  # ok
            if val_loader is not None:
                history["val_loss"].append(self.evaluate(val_loader))  # ok
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs} - loss: {history['loss'][-1]:.4f}")
        return history

    def evaluate(self, loader):
        self.eval()
        with torch.no_grad():
            losses = [self.loss_fn(self(x), y) for x, y in loader]  # ok
        return torch.stack(losses).mean()


class MLP(KerasModule):
    def __init__(self, d_in, d_out, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, d_out))

    def forward(self, x):
        return self.net(x)


def manual_loop(model, loader, epochs=3):
    per_batch = []
    per_batch_f = []
    for epoch in range(epochs):
        for x, y in loader:
            per_batch.append(model.train_on_batch(x, y))  # expect: TEN501
            per_batch_f.append(model.train_on_batch(x, y).item())  # ok
    return per_batch, per_batch_f
