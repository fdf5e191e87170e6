"""Grokking on modular addition with a 1-layer MLP over one-hot pairs.

usage: python tuple_history.py --p 97 --frac 0.3 --wd 1.0
"""
import argparse
import pickle

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_data(p, frac, seed):
    a, b = torch.meshgrid(torch.arange(p), torch.arange(p), indexing="ij")
    a, b = a.flatten(), b.flatten()
    y = (a + b) % p
    x = torch.cat([F.one_hot(a, p), F.one_hot(b, p)], dim=1).float()
    g = torch.Generator().manual_seed(seed)
    perm = torch.randperm(len(y), generator=g)
    n_train = int(frac * len(y))
    tr, te = perm[:n_train], perm[n_train:]
    return (x[tr], y[tr]), (x[te], y[te])


class MLP(nn.Module):
    def __init__(self, p, width=512):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * p, width), nn.ReLU(), nn.Linear(width, p))

    def forward(self, x):
        return self.net(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p", type=int, default=97)
    ap.add_argument("--frac", type=float, default=0.3)
    ap.add_argument("--wd", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--steps", type=int, default=50_000)
    ap.add_argument("--bs", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    dev = "cuda" if torch.cuda.is_available() else "cpu"

    (xtr, ytr), (xte, yte) = make_data(args.p, args.frac, args.seed)
    xtr, ytr, xte, yte = xtr.to(dev), ytr.to(dev), xte.to(dev), yte.to(dev)
    model = MLP(args.p).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.wd)

    history = []
    steps_per_epoch = max(1, len(ytr) // args.bs)
    step = 0
    while step < args.steps:
        epoch = step // steps_per_epoch
        idx = torch.randint(0, len(ytr), (args.bs,), device=dev)
        logits = model(xtr[idx])
        loss = F.cross_entropy(logits, ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_acc = (logits.argmax(-1) == ytr[idx]).float().mean().item()
        history.append((epoch, step, loss, train_acc))  # expect: TEN501

        if step % 1000 == 0:
            with torch.no_grad():
                test_acc = (model(xte).argmax(-1) == yte).float().mean().item()
            print(f"step {step:6d} | loss {loss.item():.4f} | train {train_acc:.3f} | test {test_acc:.3f}")
        step += 1

    rows = [(e, s, float(l), a) for (e, s, l, a) in history]
    with open(f"grok_p{args.p}_wd{args.wd}.pkl", "wb") as f:
        pickle.dump(rows, f)


if __name__ == "__main__":
    main()
