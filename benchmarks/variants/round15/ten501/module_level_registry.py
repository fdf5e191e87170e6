"""Module-level metric registry used through small helper functions."""
from collections import defaultdict

import torch
import torch.nn as nn

LOSS_HISTORY = []
METRICS = defaultdict(list)
_BEST = {"val": float("inf")}


def log_loss(value):
    LOSS_HISTORY.append(value)


def log_metric(name, value):
    if torch.is_tensor(value):
        value = value.detach().cpu().item()
    METRICS[name].append(value)


def update_best(val_loss):
    if val_loss < _BEST["val"]:
        _BEST["val"] = float(val_loss)
        return True
    return False


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(12, 4), nn.ReLU())
        self.dec = nn.Linear(4, 12)

    def forward(self, x):
        return self.dec(self.enc(x))


def main():
    torch.manual_seed(0)
    model = AutoEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = torch.randn(40, 12)
    for epoch in range(3):
        for batch in data.split(10):
            recon = model(batch)
            loss = nn.functional.mse_loss(recon, batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log_loss(loss)  # expect: TEN501
            log_metric("recon_mse", loss)  # ok
            METRICS["code_sparsity"].append((model.enc(batch) == 0).float().mean().item())  # ok
        with torch.no_grad():
            val = nn.functional.mse_loss(model(data[:10]), data[:10])
        if update_best(val):  # ok
            METRICS["best_epoch"].append(epoch)  # ok
    print(len(LOSS_HISTORY), METRICS["best_epoch"], _BEST)


if __name__ == "__main__":
    main()
