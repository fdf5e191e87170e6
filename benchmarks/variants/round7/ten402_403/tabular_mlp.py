"""Small MLP regressor for tabular data. Runs on CPU; the datasets are tiny."""
import numpy as np
import pandas as pd
import torch
from torch import nn

DEVICE = torch.device("cpu")
torch.set_num_threads(8)


class MLP(nn.Module):
    def __init__(self, n_in, hidden=(256, 128), p_drop=0.1):
        super().__init__()
        layers, d = [], n_in
        for h in hidden:
            layers += [nn.Linear(d, h), nn.BatchNorm1d(h), nn.SiLU(), nn.Dropout(p_drop)]
            d = h
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def train_regressor(df: pd.DataFrame, target: str, epochs=300, patience=25, seed=0):
    torch.manual_seed(seed)
    feats = df.drop(columns=[target]).to_numpy(np.float32)
    y = df[target].to_numpy(np.float32)[:, None]
    mu, sd = feats.mean(0), feats.std(0) + 1e-6
    X = torch.from_numpy((feats - mu) / sd)
    Y = torch.from_numpy(y)

    perm = torch.randperm(len(X))
    n_val = len(X) // 5
    va, tr = perm[:n_val], perm[n_val:]

    model = MLP(X.shape[1]).to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    loss_fn = nn.MSELoss()

    best_val, best_state, bad = float("inf"), None, 0
    for ep in range(epochs):
        model.train()
        for idx in tr[torch.randperm(len(tr))].split(256):
            opt.zero_grad()
            loss_fn(model(X[idx]), Y[idx]).backward()
            opt.step()

        model.eval()
        with torch.no_grad():
            val = loss_fn(model(X[va]), Y[va]).item()
        if val < best_val - 1e-5:
            best_val, bad = val, 0
            best_state = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        else:
            bad += 1
            if bad >= patience:
                break

    model.load_state_dict(best_state)
    return model, (mu, sd), best_val


def export_numpy(model):
    return {k: v.detach().cpu().numpy().copy() for k, v in model.state_dict().items()}  # ok


def predict(model, stats, df):
    mu, sd = stats
    X = torch.from_numpy((df.to_numpy(np.float32) - mu) / sd)
    model.eval()
    with torch.no_grad():
        return model(X).squeeze(1).numpy()
