"""Train then evaluate; the evaluation routine forgets torch.no_grad()."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n, shuffle):
    x = torch.randn(n, 20)
    y = (x.sum(dim=1) > 0).long()
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=shuffle)


def evaluate(model, loader, criterion):
    model.eval()
    all_logits = []
    total_loss = 0.0
    correct = 0
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # expect: TEN501
        total_loss += criterion(logits, y)  # expect: TEN501
        correct += (logits.argmax(1) == y).sum().item()  # ok
    return torch.cat(all_logits), total_loss / len(loader), correct / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args([])
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    train_loader, val_loader = make_loader(64, True), make_loader(48, False)
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            criterion(model(x), y).backward()
            opt.step()
        _, val_loss, val_acc = evaluate(model, val_loader, criterion)
        print(f"epoch {epoch} val_loss {val_loss.item():.3f} val_acc {val_acc:.3f}")


if __name__ == "__main__":
    main()
