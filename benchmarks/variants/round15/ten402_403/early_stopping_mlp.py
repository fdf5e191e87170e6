"""Tabular regression with patience-based early stopping (restores best weights)."""
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_data(n=256, d=8):
    x = torch.randn(n, d)
    w = torch.randn(d, 1)
    y = x @ w + 0.1 * torch.randn(n, 1)
    return x[:192], y[:192], x[192:], y[192:]


class MLP(nn.Module):
    def __init__(self, d=8, h=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, 1))

    def forward(self, x):
        return self.net(x)


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def fit(model, data, epochs=30, patience=5):
    xtr, ytr, xva, yva = data
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    best_loss, best_state, bad_epochs = float("inf"), None, 0
    for epoch in range(epochs):
        model.train()
        for i in range(0, len(xtr), 32):
            opt.zero_grad()
            loss = F.mse_loss(model(xtr[i:i + 32]), ytr[i:i + 32])
            loss.backward()
            opt.step()
        val = evaluate(model, xva, yva)
        if val < best_loss:
            best_loss = val
            best_state = model.state_dict()  # expect: TEN402
            bad_epochs = 0
        else:
            bad_epochs += 1
            if bad_epochs >= patience:
                break
    model.load_state_dict(best_state)
    return best_loss


def fit_with_buffer(model, data, epochs=10):
    xtr, ytr, xva, yva = data
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    best_loss, blob = float("inf"), io.BytesIO()
    start_opt = copy.deepcopy(opt.state_dict())  # ok
    for _ in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(xtr), ytr).backward()
        opt.step()
        val = evaluate(model, xva, yva)
        if val < best_loss:
            best_loss = val
            blob.seek(0)
            blob.truncate()
            torch.save(model.state_dict(), blob)  # ok
    blob.seek(0)
    model.load_state_dict(torch.load(blob))
    opt.load_state_dict(start_opt)
    return best_loss


if __name__ == "__main__":
    data = make_data()
    m = MLP()
    print("best val (live snapshot)", fit(m, data))
    print("after restore", evaluate(m, data[2], data[3]))
    m2 = MLP()
    print("best val (buffer)", fit_with_buffer(m2, data))
    print("after restore", evaluate(m2, data[2], data[3]))
