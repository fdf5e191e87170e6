"""Logging helpers called from the loop, plus list-building variants."""
import torch
import torch.nn as nn


def record(store, key, value):
    store.setdefault(key, []).append(value)


def main():
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
    metrics = {}
    losses = []
    terms = []
    per_step = {}
    step = 0
    while step < 10:
        x, y = torch.randn(4, 6), torch.randn(4, 1)
        out = net(x)
        mse = (out - y).pow(2).mean()
        l2 = sum(p.pow(2).sum() for p in net.parameters())
        loss = mse + 1e-4 * l2
        opt.zero_grad()
        loss.backward()
        opt.step()
        record(metrics, "loss", loss)  # expect: TEN501
        losses += [loss]  # expect: TEN501
        terms.extend([mse, l2])  # expect: TEN501
        per_step[step] = loss  # expect: TEN501
        record(metrics, "mse", mse.item())  # ok
        step += 1
    print(len(metrics["loss"]), len(losses), len(terms), len(per_step))


if __name__ == "__main__":
    main()
