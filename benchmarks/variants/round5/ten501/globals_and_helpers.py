"""Quick experiment script: entropy-regularised classifier, logs kept at module level."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TRAIN_LOSSES = []
VAL_LOSSES = []
GLOBAL_STEP = 0
ENT_COEF = 0.01


def accumulate(stats, key, value):
    stats[key] = stats.get(key, 0.0) + value


def log_scalar(store, name, value):
    store.setdefault(name, []).append(float(value))


def entropy(logits):
    return -(F.softmax(logits, dim=-1) * F.log_softmax(logits, dim=-1)).sum(-1).mean()


def train_one_epoch(model, loader, opt):
    global GLOBAL_STEP
    model.train()
    stats, logs = {}, {}
    for xb, yb in loader:
        logits = model(xb)
        ce = F.cross_entropy(logits, yb)
        ent = entropy(logits)
        loss = ce - ENT_COEF * ent
        opt.zero_grad()
        loss.backward()
        opt.step()
        TRAIN_LOSSES.append(loss)  # expect: TEN501
        accumulate(stats, "ce", ce)  # expect: TEN501
        log_scalar(logs, "entropy", ent)  # ok
        GLOBAL_STEP += 1
    return {k: float(v) / len(loader) for k, v in stats.items()}, logs


def validate(model, loader):
    model.eval()
    with torch.inference_mode():
        for xb, yb in loader:
            VAL_LOSSES.append(F.cross_entropy(model(xb), yb))  # ok
    model.train()
    return torch.stack(VAL_LOSSES[-len(loader):]).mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(480, 16)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    train_dl = DataLoader(TensorDataset(x[:400], y[:400]), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[400:], y[400:]), batch_size=40)
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
    optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    for ep in range(3):
        means, logs = train_one_epoch(net, train_dl, optim)
        print(ep, GLOBAL_STEP, means, round(validate(net, val_dl), 4), round(sum(logs["entropy"]) / len(logs["entropy"]), 4))
