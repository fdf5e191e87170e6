"""Recording through functools.partial and lambdas bound to outer containers."""
import functools

import torch
from torch import nn


def record(store, key, value):
    store.setdefault(key, []).append(value)  # expect: TEN501


def record_scalar(store, key, value):
    store.setdefault(key, []).append(float(value))  # ok


def main():
    torch.manual_seed(0)
    enc = nn.Sequential(nn.Linear(7, 7), nn.ReLU(), nn.Linear(7, 7))
    opt = torch.optim.RMSprop(enc.parameters(), lr=1e-3)
    x_all = torch.randn(40, 7)

    logs, scalars = {}, {}
    rec_loss = functools.partial(record, logs, "loss")
    rec_recon_norm = functools.partial(record_scalar, scalars, "norm")
    curve, curve_f, lrs = [], [], []
    push = lambda v: curve.append(v)  # expect: TEN501
    push_f = lambda v: curve_f.append(v.item())  # ok
    push_lr = lambda g: lrs.append(g["lr"])  # ok

    for epoch in range(2):
        for xb in x_all.split(10):
            noisy = xb + 0.1 * torch.randn_like(xb)
            recon = enc(noisy)
            loss = (recon - xb).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            rec_loss(loss)  # either: TEN501
            rec_recon_norm(recon.norm())  # ok
            push(loss)  # either: TEN501
            push_f(loss)  # ok
            push_lr(opt.param_groups[0])  # ok

    print(len(logs["loss"]), len(scalars["norm"]), len(curve), round(curve_f[-1], 4), lrs[0])


if __name__ == "__main__":
    main()
