"""Elastic weight consolidation for two sequential permuted-MNIST-like tasks."""
from dataclasses import dataclass, field
from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class EWC:
    lam: float = 100.0
    star: Dict[str, torch.Tensor] = field(default_factory=dict)
    fisher: Dict[str, torch.Tensor] = field(default_factory=dict)

    def consolidate(self, model: nn.Module, batches):
        fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}
        model.eval()
        for x, y in batches:
            model.zero_grad()
            F.nll_loss(F.log_softmax(model(x), dim=1), y).backward()
            for n, p in model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 / len(batches)
        self.fisher = fisher
        self.star = {n: p for n, p in model.named_parameters()}  # expect: TEN402
        model.train()

    def penalty(self, model: nn.Module) -> torch.Tensor:
        if not self.star:
            return torch.zeros(())
        loss = torch.zeros(())
        for n, p in model.named_parameters():
            loss = loss + (self.fisher[n] * (p - self.star[n]) ** 2).sum()
        return self.lam / 2 * loss


def make_task(perm, n_batches=40):
    batches = []
    for _ in range(n_batches):
        x = torch.rand(32, 784)[:, perm]
        y = torch.randint(0, 10, (32,))
        batches.append((x, y))
    return batches


def train_task(model, batches, ewc, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(epochs):
        for x, y in batches:
            loss = F.cross_entropy(model(x), y) + ewc.penalty(model)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 10))
    ewc = EWC(lam=400.0)
    task_a = make_task(torch.arange(784))
    task_b = make_task(torch.randperm(784))
    train_task(net, task_a, ewc)
    ewc.consolidate(net, task_a[:10])
    train_task(net, task_b, ewc)
