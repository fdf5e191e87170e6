"""Closure-based checkpoint/restore helpers used around a risky LR probe."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


def make_restorer(model):
    saved = model.state_dict()  # expect: TEN402

    def restore():
        model.load_state_dict(saved)
    return restore


def make_restorer_safe(model):
    saved = copy.deepcopy(model.state_dict())  # ok

    def restore():
        model.load_state_dict(saved)
    return restore


def lr_probe(model, x, y, lrs, restorer_factory):
    results = []
    for lr in lrs:
        restore = restorer_factory(model)
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        for _ in range(5):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        results.append(loss.item())
        restore()
    return results


if __name__ == "__main__":
    x = torch.randn(20, 3)
    y = x.pow(2).sum(1, keepdim=True)
    for factory in (make_restorer, make_restorer_safe):
        torch.manual_seed(9)
        model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        res = lr_probe(model, x, y, [0.001, 0.01, 0.05], factory)
        print(factory.__name__, [round(r, 6) for r in res])
