"""Classifier training with a per-epoch validation pass."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n=800, d=20, k=4):
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(k, d, generator=g) * 2
    y = torch.randint(0, k, (n,), generator=g)
    x = centers[y] + torch.randn(n, d, generator=g)
    train = TensorDataset(x[:640], y[:640])
    val = TensorDataset(x[640:], y[640:])
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(val, batch_size=64)


def evaluate(model, loader, criterion):
    model.eval()
    total = 0.0
    for x, y in loader:
        out = model(x)
        total += criterion(out, y)  # expect: TEN501
    model.train()
    return total / len(loader)


@torch.no_grad()
def evaluate_accuracy(model, loader):
    model.eval()
    correct, seen = 0, 0
    all_targets = torch.empty(0, dtype=torch.long)
    all_preds = torch.empty(0, dtype=torch.long)
    for x, y in loader:
        preds = model(x).argmax(dim=1)
        all_preds = torch.cat((all_preds, preds))  # ok
        all_targets = torch.cat((all_targets, y))  # ok
        correct += (preds == y).sum().item()
        seen += y.numel()
    model.train()
    return correct / seen


def train(epochs=4):
    train_loader, val_loader = make_loaders()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    history = {"val_loss": [], "val_acc": []}
    for epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        val_loss = evaluate(model, val_loader, criterion)
        history["val_loss"].append(val_loss.item())  # ok
        history["val_acc"].append(evaluate_accuracy(model, val_loader))
        print(f"epoch {epoch}: val_loss {history['val_loss'][-1]:.4f} acc {history['val_acc'][-1]:.3f}")
    return history


if __name__ == "__main__":
    train()
