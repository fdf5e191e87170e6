"""Transfer / continual-learning penalties that pull weights back toward an anchor."""
import torch
from torch import nn
import torch.nn.functional as F


class L2SP:
    """L2 toward the starting point (Li et al.): alpha * ||w - w0||^2 on the backbone."""

    def __init__(self, backbone, alpha=0.01):
        self.alpha = alpha
        self.anchor = {n: p for n, p in backbone.named_parameters()}  # expect: TEN402
        self.backbone = backbone

    def penalty(self):
        total = 0.0
        for n, p in self.backbone.named_parameters():
            total = total + (p - self.anchor[n]).pow(2).sum()
        return self.alpha * total


class EWC:
    """Elastic weight consolidation with a diagonal Fisher estimate."""

    def __init__(self, model, data, lam=50.0):
        self.model = model
        self.lam = lam
        self.star = {n: p.data for n, p in model.named_parameters() if p.requires_grad}  # expect: TEN402
        self.fisher = self._fisher(data)

    def _fisher(self, data):
        x, y = data
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters() if p.requires_grad}  # ok
        for i in range(len(x)):
            self.model.zero_grad()
            F.cross_entropy(self.model(x[i:i + 1]), y[i:i + 1]).backward()
            for n, p in self.model.named_parameters():
                if p.grad is not None:
                    fisher[n] += p.grad.detach() ** 2 / len(x)
        self.model.zero_grad()
        return fisher

    def penalty(self):
        loss = 0.0
        for n, p in self.model.named_parameters():
            if n in self.star:
                loss = loss + (self.fisher[n] * (p - self.star[n]) ** 2).sum()
        return 0.5 * self.lam * loss


def task(seed, shift):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 10, generator=g) + shift
    y = (x[:, seed % 10] > shift).long()
    return x, y


def fit(model, data, steps=30, reg=None, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        if reg is not None:
            loss = loss + reg.penalty()
        loss.backward()
        opt.step()
    return loss.item()


def continual(seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
    t1, t2 = task(1, 0.0), task(2, 0.5)
    fit(model, t1)
    ewc = EWC(model, t1)
    fit(model, t2, reg=ewc)
    return model, ewc


def transfer(seed=0):
    torch.manual_seed(seed)
    backbone = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
    fit(nn.Sequential(backbone, nn.Linear(16, 2)), task(3, 0.0))
    model = nn.Sequential(backbone, nn.Linear(16, 2))
    reg = L2SP(backbone, alpha=0.05)
    fit(model, task(4, 0.2), reg=reg)
    return model, reg


if __name__ == "__main__":
    _, ewc = continual()
    print("EWC penalty after task 2:", float(ewc.penalty().detach()))
    _, l2sp = transfer()
    print("L2-SP penalty after fine-tuning:", float(l2sp.penalty().detach()))
