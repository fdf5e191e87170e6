"""A small Keras-like wrapper around nn.Module with fit/evaluate and best-weight restoring."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class KerasModel:
    def __init__(self, model, loss_fn, optimizer_cls=torch.optim.Adam, lr=1e-3, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.loss_fn = loss_fn
        self.optimizer = optimizer_cls(self.model.parameters(), lr=lr)
        self.history = {"loss": [], "val_loss": []}

    def get_weights(self):
        return self.model.state_dict()

    def set_weights(self, weights):
        self.model.load_state_dict(weights)

    def _step(self, xb, yb, train):
        xb, yb = xb.to(self.device), yb.to(self.device)
        with torch.set_grad_enabled(train):
            loss = self.loss_fn(self.model(xb), yb)
        if train:
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    def evaluate(self, loader):
        self.model.eval()
        losses = [self._step(xb, yb, train=False) for xb, yb in loader]
        return sum(losses) / max(len(losses), 1)

    def fit(self, train_ds, val_ds=None, epochs=10, batch_size=32, restore_best_weights=True, patience=None):
        train_loader = DataLoader(train_ds, batch_size=batch_size, shuffle=True)
        val_loader = DataLoader(val_ds, batch_size=batch_size) if val_ds is not None else None
        best_loss, best_weights, wait = float("inf"), None, 0

        for epoch in range(epochs):
            self.model.train()
            losses = [self._step(xb, yb, train=True) for xb, yb in train_loader]
            self.history["loss"].append(sum(losses) / len(losses))
            if val_loader is None:
                continue
            val_loss = self.evaluate(val_loader)
            self.history["val_loss"].append(val_loss)
            print(f"Epoch {epoch + 1}/{epochs} - loss: {self.history['loss'][-1]:.4f} - val_loss: {val_loss:.4f}")

            if val_loss < best_loss:
                best_loss, wait = val_loss, 0
                best_weights = self.get_weights()  # expect: TEN402
            else:
                wait += 1
                if patience is not None and wait >= patience:
                    break

        if restore_best_weights and best_weights is not None:
            self.set_weights(best_weights)
        return self.history


if __name__ == "__main__":
    from torch.utils.data import TensorDataset

    X, y = torch.randn(2048, 16), torch.randint(0, 3, (2048,))
    net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 3))
    km = KerasModel(net, nn.CrossEntropyLoss())
    km.fit(TensorDataset(X[:1800], y[:1800]), TensorDataset(X[1800:], y[1800:]), epochs=20, patience=5)
