#!/usr/bin/env python
"""House-price regression baseline: MLP on standardized numeric features."""
import argparse
import json
import time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split


def load_frame(path, target="SalePrice"):
    df = pd.read_csv(path)
    y = np.log1p(df.pop(target).values.astype(np.float32))
    num = df.select_dtypes(include=[np.number]).fillna(0.0)
    x = ((num - num.mean()) / (num.std() + 1e-6)).values.astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y).unsqueeze(1)


def make_model(in_dim, hidden=256, p=0.1):
    return nn.Sequential(
        nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
        nn.Linear(hidden, hidden // 2), nn.ReLU(),
        nn.Linear(hidden // 2, 1),
    )


def train_step(model, batch, optimizer, loss_fn, clip=1.0):
    x, y = batch
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    return loss


@torch.no_grad()
def eval_step(model, batch, loss_fn):
    x, y = batch
    return loss_fn(model(x), y)


def fit(model, train_loader, val_loader, epochs, lr, device):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    loss_fn = nn.MSELoss()
    history = []
    for epoch in range(epochs):
        t0 = time.time()
        model.train()
        running = 0.0
        for batch in train_loader:
            batch = [t.to(device) for t in batch]
            loss = train_step(model, batch, optimizer, loss_fn)
            running += loss  # expect: TEN501
        scheduler.step()

        model.eval()
        val = 0.0
        for batch in val_loader:
            batch = [t.to(device) for t in batch]
            val += eval_step(model, batch, loss_fn)

        rec = {
            "epoch": epoch,
            "train_rmse": float(running / len(train_loader)) ** 0.5,
            "val_rmse": float(val / len(val_loader)) ** 0.5,
            "time": round(time.time() - t0, 2),
        }
        history.append(rec)
        print(json.dumps(rec))
    return history


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--bs", type=int, default=64)
    args = ap.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    x, y = load_frame(args.csv)
    ds = TensorDataset(x, y)
    n_val = int(0.2 * len(ds))
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val],
                                    generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_ds, batch_size=args.bs, shuffle=True, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=256)

    model = make_model(x.shape[1]).to(device)
    history = fit(model, train_loader, val_loader, args.epochs, args.lr, device)
    with open("history.json", "w") as f:
        json.dump(history, f, indent=1)


if __name__ == "__main__":
    main()
