#!/usr/bin/env python
"""CPU-only training of a tabular churn model; keeps the best epoch's weights on CPU."""
import pandas as pd
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

torch.set_num_threads(8)
device = torch.device("cpu")


class ChurnNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_features, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(),
        )
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(1)


def load(path="churn.csv"):
    df = pd.read_csv(path)
    y = df.pop("churned").values
    X = StandardScaler().fit_transform(df.select_dtypes("number").values)
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    as_t = lambda a: torch.tensor(a, dtype=torch.float32)
    return as_t(X_tr), as_t(y_tr), as_t(X_va), as_t(y_va)


def main(epochs=50, bs=512):
    X_tr, y_tr, X_va, y_va = load()
    model = ChurnNet(X_tr.shape[1]).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    pos_weight = (1 - y_tr.mean()) / y_tr.mean()
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)

    best_auc, best_state = 0.0, None
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(X_tr))
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            loss = loss_fn(model(X_tr[idx].to(device)), y_tr[idx].to(device))
            loss.backward()
            opt.step()

        model.eval()
        with torch.no_grad():
            scores = torch.sigmoid(model(X_va.to(device))).cpu().numpy()
        auc = roc_auc_score(y_va.numpy(), scores)
        if auc > best_auc:
            best_auc = auc
            best_state = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        print(f"epoch {epoch:02d} auc={auc:.4f} best={best_auc:.4f}")

    torch.save(best_state, "churn_best.pt")
    return best_auc


if __name__ == "__main__":
    main()
