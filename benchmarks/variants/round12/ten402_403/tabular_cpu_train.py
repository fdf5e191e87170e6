#!/usr/bin/env python
"""Tabular classifier trained on the CPU with ReduceLROnPlateau + restore-best."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(4)


def load(path="features.npz"):
    d = np.load(path)
    x = torch.from_numpy(d["x"]).float()
    y = torch.from_numpy(d["y"]).long()
    n = int(0.85 * len(x))
    return TensorDataset(x[:n], y[:n]), TensorDataset(x[n:], y[n:])


def val_loss(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(nn.functional.cross_entropy(model(x), y, reduction="sum").item()
                   for x, y in loader) / len(loader.dataset)


def main():
    train_ds, val_ds = load()
    train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)
    n_feat = train_ds.tensors[0].shape[1]
    model = nn.Sequential(nn.Linear(n_feat, 256), nn.BatchNorm1d(256), nn.ReLU(),
                          nn.Dropout(0.2), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.3, patience=3)

    best, best_state = float("inf"), None
    for epoch in range(100):
        model.train()
        for x, y in train_dl:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        vl = val_loss(model, val_dl)
        sched.step(vl)
        if vl < best:
            best = vl
            best_state = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        if opt.param_groups[0]["lr"] < 1e-6:
            break
    model.load_state_dict(best_state)
    torch.save(model.state_dict(), "tabular.pt")  # ok
    return model


def keep_best_on(device, model, loader, evaluate, epochs=10):
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    best_acc, kept = -1.0, None
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        acc = evaluate(model)
        if acc > best_acc:
            best_acc = acc
            kept = {k: v.cpu() for k, v in model.state_dict().items()}  # either
    cpu_copy = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok
    return kept, cpu_copy


if __name__ == "__main__":
    main()
