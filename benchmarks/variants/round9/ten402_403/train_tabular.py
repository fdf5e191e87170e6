"""Churn model: a small MLP over tabular features.

Runs on the CPU-only batch scoring workers, so everything here stays on the host.
"""
import argparse
import json

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(8)
DEVICE = torch.device("cpu")


class TabularMLP(nn.Module):
    def __init__(self, n_in, hidden=(256, 128), dropout=0.2):
        super().__init__()
        layers, d = [], n_in
        for h in hidden:
            layers += [nn.Linear(d, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(dropout)]
            d = h
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(-1)


def fit(model, X_tr, y_tr, X_va, y_va, epochs=100, lr=1e-3, batch_size=1024, patience=10):
    model = model.to(DEVICE)
    init = {k: v.cpu().clone() for k, v in model.state_dict().items()}  # ok
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    train_ds = TensorDataset(
        torch.tensor(X_tr, dtype=torch.float32), torch.tensor(y_tr, dtype=torch.float32)
    )
    loader = DataLoader(train_ds, batch_size=batch_size, shuffle=True, drop_last=True)
    X_va_t = torch.tensor(X_va, dtype=torch.float32)

    best_auc, best_epoch, restarts = -np.inf, -1, 0
    weights = None
    epoch = 0
    while epoch < epochs:
        model.train()
        diverged = False
        for xb, yb in loader:
            loss = F.binary_cross_entropy_with_logits(model(xb), yb)
            if not torch.isfinite(loss):
                diverged = True
                break
            opt.zero_grad()
            loss.backward()
            opt.step()

        if diverged:
            restarts += 1
            if restarts > 3:
                raise RuntimeError("training keeps diverging, giving up")
            lr *= 0.3
            model.load_state_dict(init)
            opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
            best_auc, best_epoch, weights, epoch = -np.inf, -1, None, 0
            continue

        model.eval()
        with torch.no_grad():
            scores = torch.sigmoid(model(X_va_t)).numpy()
        auc = roc_auc_score(y_va, scores)
        if auc > best_auc + 1e-4:
            best_auc, best_epoch = auc, epoch
            # move to host so the export step never depends on where training ran
            weights = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        elif epoch - best_epoch >= patience:
            break
        epoch += 1

    if weights is not None:
        model.load_state_dict(weights)
    return model, best_auc, best_epoch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--target", default="churned")
    ap.add_argument("--out", default="churn_mlp.pt")
    ap.add_argument("--epochs", type=int, default=100)
    args = ap.parse_args()

    df = pd.read_csv(args.csv)
    y = df.pop(args.target).to_numpy(dtype=np.float32)
    X = df.select_dtypes("number").fillna(0.0).to_numpy(dtype=np.float32)
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    scaler = StandardScaler().fit(X_tr)
    X_tr, X_va = scaler.transform(X_tr), scaler.transform(X_va)

    model, auc, epoch = fit(TabularMLP(X.shape[1]), X_tr, y_tr, X_va, y_va, epochs=args.epochs)
    print(json.dumps({"val_auc": round(float(auc), 5), "best_epoch": epoch}))
    torch.save(
        {
            "state_dict": model.state_dict(),
            "columns": list(df.select_dtypes("number").columns),
            "scaler_mean": scaler.mean_.tolist(),
            "scaler_scale": scaler.scale_.tolist(),
        },
        args.out,
    )


if __name__ == "__main__":
    main()
