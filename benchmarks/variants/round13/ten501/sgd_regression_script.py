"""Fit a small regression MLP on synthetic data and keep curves for plotting."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_data(n=192, d=8, noise=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, 1, generator=g)
    y = x @ w + noise * torch.randn(n, 1, generator=g)
    return x, y


def batches(x, y, bs, shuffle=True):
    order = torch.randperm(len(x)) if shuffle else torch.arange(len(x))
    for start in range(0, len(x), bs):
        sel = order[start:start + bs]
        yield x[sel], y[sel]


def build_model(d, hidden):
    return nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, 1))


def run(args):
    torch.manual_seed(args.seed)
    x, y = make_data(d=args.dim)
    split = int(0.75 * len(x))
    xtr, ytr, xva, yva = x[:split], y[:split], x[split:], y[split:]
    model = build_model(args.dim, args.hidden)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)

    curves = {"train": [], "val": [], "lr": [], "gnorm": [], "best": []}
    best_val = math.inf
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        n_batches = 0
        for xb, yb in batches(xtr, ytr, args.batch_size):
            pred = model(xb)
            loss = F.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            opt.step()
            running = running + loss  # expect: TEN501
            n_batches += 1
            curves["gnorm"].append(gn)  # ok
        curves["train"].append(running / n_batches)  # expect: TEN501
        curves["lr"].append(opt.param_groups[0]["lr"])  # ok
        sched.step()

        model.eval()
        with torch.no_grad():
            val_loss = F.mse_loss(model(xva), yva)
        curves["val"].append(val_loss)  # ok
        best_val = min(best_val, val_loss.item())
        curves["best"].append(best_val)  # ok
        print(f"epoch {epoch}: train={float(running) / n_batches:.4f} "
              f"val={val_loss.item():.4f} rmse={math.sqrt(val_loss.item()):.3f}")
    return curves


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--dim", type=int, default=8)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


if __name__ == "__main__":
    out = run(parse_args([]))
    print({k: len(v) for k, v in out.items()})
