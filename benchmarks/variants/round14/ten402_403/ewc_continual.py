"""Elastic weight consolidation across two sequential regression tasks."""
import torch
from torch import nn


def task_data(seed, shift):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(128, 5, generator=g)
    w = torch.randn(5, 1, generator=g) + shift
    return x, x @ w


class EWC:
    def __init__(self, model, lam=2.0):
        self.model, self.lam = model, lam
        self.fisher, self.star = {}, {}

    def consolidate(self, x, y, n_batches=8):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}  # ok
        for xb, yb in zip(x.chunk(n_batches), y.chunk(n_batches)):
            self.model.zero_grad()
            nn.functional.mse_loss(self.model(xb), yb).backward()
            for n, p in self.model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 / n_batches
        self.fisher = fisher
        self.star = self._anchor()

    def _anchor(self):
        return {n: p.cpu() for n, p in self.model.named_parameters()}  # expect: TEN402

    def penalty(self):
        if not self.fisher:
            return torch.tensor(0.0)
        return self.lam * sum((self.fisher[n] * (p - self.star[n]) ** 2).sum() for n, p in self.model.named_parameters())


class EWCCloned(EWC):
    def _anchor(self):
        return {n: p.detach().cpu().clone() for n, p in self.model.named_parameters()}  # ok


def train(model, ewc, x, y, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y) + ewc.penalty()
        opt.zero_grad()
        loss.backward()
        opt.step()


def mse(model, x, y):
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


if __name__ == "__main__":
    a, b = task_data(1, 0.0), task_data(2, 2.0)
    for cls in (EWC, EWCCloned):
        torch.manual_seed(0)
        model = nn.Linear(5, 1)
        ewc = cls(model)
        train(model, ewc, *a)
        ewc.consolidate(*a)
        before = mse(model, *a)
        train(model, ewc, *b)
        print(f"{cls.__name__}: task A loss {before:.3f} -> {mse(model, *a):.3f} after task B (B loss {mse(model, *b):.3f}), penalty now {ewc.penalty().item():.4f}")
