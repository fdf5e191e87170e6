"""Tabular regression with patience-based early stopping."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class EarlyStopping:
    def __init__(self, patience: int = 5, min_delta: float = 1e-4):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_state = None
        self.bad_epochs = 0

    def step(self, val_loss: float, model: nn.Module) -> bool:
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore(self, model: nn.Module) -> None:
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


def make_data(n=2048, d=16):
    x = torch.randn(n, d)
    w = torch.randn(d, 1)
    y = x @ w + 0.1 * torch.randn(n, 1)
    return TensorDataset(x[:1600], y[:1600]), TensorDataset(x[1600:], y[1600:])


def evaluate(model, loader):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            total += nn.functional.mse_loss(model(xb), yb, reduction="sum").item()
            count += xb.shape[0]
    return total / count


def main():
    train_ds, val_ds = make_data()
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    stopper = EarlyStopping(patience=4)

    for epoch in range(100):
        model.train()
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
        val = evaluate(model, val_dl)
        torch.save(model.state_dict(), f"epoch_{epoch:03d}.pt")  # ok
        if stopper.step(val, model):
            print(f"stopping at epoch {epoch}, best val {stopper.best_loss:.4f}")
            break

    stopper.restore(model)
    print("restored val loss:", evaluate(model, val_dl))


if __name__ == "__main__":
    main()
