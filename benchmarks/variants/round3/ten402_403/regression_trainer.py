"""Generic trainer for tabular regression, with multiple restarts."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, d_in, hidden=(256, 128), dropout=0.1):
        super().__init__()
        layers, prev = [], d_in
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.ReLU(), nn.Dropout(dropout)]
            prev = h
        layers.append(nn.Linear(prev, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Trainer:
    def __init__(self, model, lr=1e-3, max_epochs=200, patience=20, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.lr = lr
        self.max_epochs = max_epochs
        self.patience = patience
        self.loss_fn = nn.MSELoss()
        self._init_state = dict(self.model.state_dict())  # expect: TEN402
        self._best_state = None
        self._best_loss = float("inf")

    def _run_epoch(self, loader, optimizer=None):
        training = optimizer is not None
        self.model.train(training)
        total, n = 0.0, 0
        with torch.set_grad_enabled(training):
            for xb, yb in loader:
                xb, yb = xb.to(self.device), yb.to(self.device)
                loss = self.loss_fn(self.model(xb), yb)
                if training:
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                total += loss.item() * len(xb)
                n += len(xb)
        return total / n

    def reset(self):
        """Restart from the initial weights (used between restarts)."""
        self.model.load_state_dict(self._init_state)
        self._best_state = None
        self._best_loss = float("inf")

    def fit(self, train_ds, val_ds):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr, weight_decay=1e-5)
        train_loader = DataLoader(train_ds, batch_size=256, shuffle=True)
        val_loader = DataLoader(val_ds, batch_size=1024)
        bad = 0
        for epoch in range(self.max_epochs):
            tr = self._run_epoch(train_loader, optimizer)
            va = self._run_epoch(val_loader)
            if va < self._best_loss - 1e-6:
                self._best_loss = va
                self._best_state = {k: v for k, v in self.model.state_dict().items()}  # expect: TEN402
                bad = 0
            else:
                bad += 1
                if bad > self.patience:
                    break
        self.model.load_state_dict(self._best_state)
        return self._best_loss


def multi_restart(X, y, n_restarts=3):
    n_val = len(X) // 5
    train_ds = TensorDataset(X[n_val:], y[n_val:])
    val_ds = TensorDataset(X[:n_val], y[:n_val])
    trainer = Trainer(MLP(X.shape[1]))
    scores = []
    for r in range(n_restarts):
        if r > 0:
            trainer.reset()
        scores.append(trainer.fit(train_ds, val_ds))
        print(f"restart {r}: best val mse {scores[-1]:.4f}")
    return scores


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(5000, 20)
    y = X[:, :5].sum(1) + 0.1 * torch.randn(5000)
    multi_restart(X, y)
