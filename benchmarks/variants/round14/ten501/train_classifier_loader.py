"""Classifier training with a DataLoader, gradient clipping and per-epoch validation."""
from collections import defaultdict

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_loaders(n_train=192, n_val=64, dim=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(dim, 3, generator=g)
    xs = torch.randn(n_train + n_val, dim, generator=g)
    ys = (xs @ w).argmax(dim=1)
    train = TensorDataset(xs[:n_train], ys[:n_train])
    val = TensorDataset(xs[n_train:], ys[n_train:])
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(val, batch_size=64)


@torch.no_grad()
def evaluate(model, loader, criterion):
    model.eval()
    total, count = torch.zeros(()), 0
    for xb, yb in loader:
        total += criterion(model(xb), yb) * xb.size(0)  # ok
        count += xb.size(0)  # ok
    model.train()
    return total / count


def train(epochs=3):
    torch.manual_seed(0)
    train_dl, val_dl = build_loaders()
    model = nn.Sequential(nn.Linear(10, 24), nn.Tanh(), nn.Linear(24, 3))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    history = defaultdict(list)
    val_scores = []
    all_preds = []
    for epoch in range(epochs):
        epoch_loss, correct, seen = 0.0, 0, 0
        for xb, yb in train_dl:
            out = model(xb)
            loss = criterion(out, yb)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            optimizer.step()

            epoch_loss += loss.item() * xb.size(0)  # ok
            history["loss"].append(loss.detach())  # ok
            history["grad_norm"].append(float(gn))  # ok
            correct += (out.argmax(1) == yb).sum().item()  # ok
            seen += xb.size(0)  # ok
            all_preds.append(out.argmax(1))  # ok

        val_scores.append(evaluate(model, val_dl, criterion))  # ok
        print(f"epoch {epoch} train_loss={epoch_loss / seen:.4f} "
              f"train_acc={correct / seen:.3f} val_loss={val_scores[-1].item():.4f}")

    mean_gn = sum(history["grad_norm"]) / len(history["grad_norm"])
    print("mean grad norm", round(mean_gn, 3), "n preds", torch.cat(all_preds).numel())


if __name__ == "__main__":
    train()
