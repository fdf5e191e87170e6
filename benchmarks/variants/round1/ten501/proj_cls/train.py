"""Binary classifier training with per-epoch validation."""
import argparse

import torch
import torch.nn as nn

from data import get_loaders
from metrics import AverageMeter
from validate import validate


def train_one_epoch(model, loader, criterion, optimizer, max_norm):
    model.train()
    loss_meter = AverageMeter()
    grad_norms = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        grad_norms.append(nn.utils.clip_grad_norm_(model.parameters(), max_norm))  # ok
        optimizer.step()
        loss_meter.update(loss.item(), x.size(0))  # ok
    return loss_meter.avg, torch.stack(grad_norms).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--max-norm", type=float, default=1.0)
    args = ap.parse_args([])
    train_loader, val_loader = get_loaders()
    model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        tr_loss, gnorm = train_one_epoch(model, train_loader, criterion, optimizer, args.max_norm)
        val_loss, _, _ = validate(model, val_loader, criterion)
        print(f"epoch {epoch} train {tr_loss:.4f} gnorm {gnorm:.3f} val {float(val_loss):.4f}")


if __name__ == "__main__":
    main()
