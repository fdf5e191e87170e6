"""Two-task continual learning with an Elastic Weight Consolidation penalty."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EWC:
    def __init__(self, strength=200.0):
        self.strength = strength
        self.fisher = {}
        self.anchor = {}

    def consolidate(self, model, x, y):
        model.zero_grad()
        F.cross_entropy(model(x), y).backward()
        self.fisher = {n: p.grad.detach() ** 2 + 1e-4 for n, p in model.named_parameters()}  # ok
        self.anchor = {n: p for n, p in model.named_parameters()}  # expect: TEN402
        model.zero_grad()

    def penalty(self, model):
        if not self.anchor:
            return torch.zeros(())
        total = 0.0
        for n, p in model.named_parameters():
            total = total + (self.fisher[n] * (p - self.anchor[n]) ** 2).sum()
        return self.strength * total


class DetachedEWC(EWC):
    def consolidate(self, model, x, y):
        model.zero_grad()
        F.cross_entropy(model(x), y).backward()
        self.fisher = {n: p.grad.detach() ** 2 + 1e-4 for n, p in model.named_parameters()}  # ok
        self.anchor = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        model.zero_grad()


def make_task(shift, n=300):
    x = torch.randn(n, 4)
    y = ((x[:, 0] + shift * x[:, 1]) > 0).long()
    return x, y


def acc(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def train(model, x, y, reg, steps=150):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for s in range(steps):
        idx = torch.randint(0, len(x), (32,))
        loss = F.cross_entropy(model(x[idx]), y[idx]) + reg.penalty(model)
        opt.zero_grad()
        loss.backward()
        opt.step()


def main():
    task_a, task_b = make_task(2.0), make_task(-2.0)
    for reg_type in (EWC, DetachedEWC):
        torch.manual_seed(4)
        model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
        reg = reg_type(strength=3000.0)
        train(model, *task_a, reg)
        before = acc(model, *task_a)
        reg.consolidate(model, *task_a)
        train(model, *task_b, reg)
        print(f"{reg_type.__name__:12s} task A acc: {before:.3f} -> {acc(model, *task_a):.3f}, "
              f"task B acc {acc(model, *task_b):.3f}, final penalty {reg.penalty(model).item():.4f}")


if __name__ == "__main__":
    main()
