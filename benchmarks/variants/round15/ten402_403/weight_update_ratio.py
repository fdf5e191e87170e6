"""Log the update/weight ratio per parameter (the 1e-3 rule of thumb)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make():
    return nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))


def update_ratios_buggy(model, opt, x, y, steps=5):
    log = []
    for _ in range(steps):
        prev = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        log.append({n: ((p.detach() - prev[n]).norm() / (prev[n].norm() + 1e-12)).item()
                    for n, p in model.named_parameters()})
    return log


def update_ratios(model, opt, x, y, steps=5):
    log = []
    for _ in range(steps):
        prev = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        grads_seen = [n for n, p in model.named_parameters() if p.grad is not None]  # ok
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        log.append({n: ((p.detach() - prev[n]).norm() / (prev[n].norm() + 1e-12)).item()
                    for n, p in model.named_parameters()})
        del grads_seen
    return log


if __name__ == "__main__":
    x, y = torch.randn(16, 1, 8, 8), torch.randint(0, 10, (16,))
    m1, m2 = make(), make()
    print("buggy:", update_ratios_buggy(m1, torch.optim.SGD(m1.parameters(), lr=0.1), x, y)[-1]["3.weight"])
    print("fixed:", update_ratios(m2, torch.optim.SGD(m2.parameters(), lr=0.1), x, y)[-1]["3.weight"])
