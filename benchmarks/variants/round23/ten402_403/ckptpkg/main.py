"""Training script that uses the snapshot helpers; run with `python -m ckptpkg.main`."""
import torch
import torch.nn as nn

from ckptpkg import store
from ckptpkg.snapshots import Keeper, rewind, take_copy, take_snapshot


def train(model, steps=3, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = torch.randn(12, 4), torch.randn(12, 2)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def checksum(model):
    return sum(p.sum().item() for p in model.parameters())


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    init = take_snapshot(model)  # either: TEN402
    init_copy = take_copy(model)  # ok
    train(model)
    rewind(model, init)
    print("after rewind to snapshot: %.6f" % checksum(model))
    rewind(model, init_copy)
    print("after rewind to copy: %.6f" % checksum(model))

    keeper = Keeper()
    norms = Keeper()
    for _ in range(3):
        train(model, steps=2)
        keeper.keep(model)
        norms.keep_param_norms(model)
    print("kept mean weight sum: %.6f" % keeper.mean()["weight"].sum().item())
    print("kept mean weight norm: %.6f" % norms.mean()["weight"].item())

    store.remember("before_ft", model)
    store.remember("before_ft_copy", model, copy=True)
    train(model, steps=4, lr=0.3)
    for name in ("before_ft", "before_ft_copy"):
        delta = sum((model.state_dict()[k] - v).abs().sum().item() for k, v in store.STORE[name].items())
        print("%s delta: %.6f" % (name, delta))


if __name__ == "__main__":
    main()
