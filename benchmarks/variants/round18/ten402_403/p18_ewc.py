"""Elastic weight consolidation across two sequential tasks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def task(seed, n=64):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    w = torch.randn(6, 3, generator=g)
    return x, (x @ w).argmax(1)


class EWC:
    def __init__(self, model, data, lam=50.0):
        self.model, self.lam = model, lam
        self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}
        self.means = {n: p for n, p in self.params.items()}  # expect: TEN402
        self.fisher = self._fisher(data)

    def _fisher(self, data):
        fisher = {n: torch.zeros_like(p) for n, p in self.params.items()}  # ok
        x, _ = data
        for xi in x.split(1):
            self.model.zero_grad()
            out = F.log_softmax(self.model(xi), 1)
            F.nll_loss(out, out.argmax(1)).backward()
            for n, p in self.params.items():
                fisher[n] += p.grad.detach() ** 2 / len(x)  # ok
        return fisher

    def penalty(self, model):
        loss = 0.0
        for n, p in model.named_parameters():
            loss = loss + (self.fisher[n] * (p - self.means[n]) ** 2).sum()
        return self.lam * loss


class EWCFixed(EWC):
    def __init__(self, model, data, lam=50.0):
        self.model, self.lam = model, lam
        self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}
        self.means = {n: p.detach().clone() for n, p in self.params.items()}  # ok
        self.fisher = self._fisher(data)


def train(model, data, ewc=None, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = data
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        if ewc is not None:
            loss = loss + ewc.penalty(model)
        loss.backward()
        opt.step()


def acc(model, data):
    with torch.no_grad():
        return round((model(data[0]).argmax(1) == data[1]).float().mean().item(), 3)


if __name__ == "__main__":
    a, b = task(1), task(2)
    for cls in (EWC, EWCFixed):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
        train(model, a)
        ewc = cls(model, a)
        train(model, b, ewc)
        print(cls.__name__, "task A", acc(model, a), "task B", acc(model, b),
              "penalty", round(ewc.penalty(model).item(), 4))
