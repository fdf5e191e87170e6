"""Churn model: small MLP on tabular features, trained on CPU."""
import argparse

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

from es_proj.ckpt import restore, save, snapshot


class MLP(nn.Module):
    def __init__(self, n_in, hidden=(256, 128), p=0.2):
        super().__init__()
        layers, d = [], n_in
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(p)]
            d = h
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(-1)


def load_data(path, target="churn"):
    df = pd.read_csv(path)
    y = df.pop(target).astype(np.float32).values
    X = pd.get_dummies(df, drop_first=True).astype(np.float32).values
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
    scaler = StandardScaler().fit(X_tr)
    return scaler.transform(X_tr).astype(np.float32), scaler.transform(X_va).astype(np.float32), y_tr, y_va


@torch.no_grad()
def val_auc(model, X, y):
    model.eval()
    scores = torch.sigmoid(model(torch.from_numpy(X))).numpy()
    return roc_auc_score(y, scores)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", default="data/churn.csv")
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--patience", type=int, default=10)
    ap.add_argument("--out", default="artifacts/mlp_best.pt")
    args = ap.parse_args()

    X_tr, X_va, y_tr, y_va = load_data(args.csv)
    loader = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)), batch_size=512, shuffle=True)
    model = MLP(X_tr.shape[1])
    pos_weight = torch.tensor((1 - y_tr.mean()) / y_tr.mean())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)

    best_auc, best_snap, wait = -1.0, None, 0
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(xb), yb, pos_weight=pos_weight)
            loss.backward()
            optimizer.step()
        auc = val_auc(model, X_va, y_va)
        print(f"epoch {epoch:3d} val_auc {auc:.4f}")
        if auc > best_auc:
            best_auc, wait = auc, 0
            best_snap = snapshot(model)  # expect: TEN402
        else:
            wait += 1
            if wait >= args.patience:
                break

    restore(model, best_snap)
    print(f"best val_auc {best_auc:.4f} / restored {val_auc(model, X_va, y_va):.4f}")
    save(model, args.out)


if __name__ == "__main__":
    main()
