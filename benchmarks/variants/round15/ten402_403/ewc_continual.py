"""Elastic Weight Consolidation across two synthetic tasks."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def task_data(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(128, 6, generator=g)
    w = torch.randn(6, 2, generator=g)
    return x, (x @ w).argmax(1)


class EWC:
    def __init__(self, model, x, y, lam=50.0):
        self.lam = lam
        self.means = {n: p for n, p in model.named_parameters() if p.requires_grad}  # expect: TEN402
        self.fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}  # ok
        for i in range(0, len(x), 16):
            model.zero_grad()
            F.cross_entropy(model(x[i:i + 16]), y[i:i + 16]).backward()
            for n, p in model.named_parameters():
                self.fisher[n] += p.grad.detach() ** 2 / (len(x) / 16)

    def penalty(self, model):
        return self.lam * sum((self.fisher[n] * (p - self.means[n]) ** 2).sum()
                              for n, p in model.named_parameters())


def train(model, x, y, ewc=None, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        if ewc is not None:
            loss = loss + ewc.penalty(model)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
    xa, ya = task_data(1)
    xb, yb = task_data(2)
    train(model, xa, ya)
    task_a_state = copy.deepcopy(model.state_dict())  # ok
    ewc = EWC(model, xa, ya)
    train(model, xb, yb, ewc)
    print("EWC penalty after task B:", ewc.penalty(model).item())
    drift = sum((v - task_a_state[k]).abs().sum().item() for k, v in model.state_dict().items())  # ok
    print("actual drift from task A weights:", drift)
