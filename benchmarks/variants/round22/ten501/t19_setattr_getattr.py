"""Metric bags that add values by name through setattr/getattr."""
import torch
from torch import nn


class Bag:
    def __init__(self, *names):
        self._names = names
        for n in names:
            setattr(self, n, 0.0)

    def add(self, name, value):
        setattr(self, name, getattr(self, name) + value)  # expect: TEN501

    def as_dict(self):
        return {n: float(getattr(self, n)) for n in self._names}


class ScalarBag(Bag):
    def add(self, name, value):
        if isinstance(value, torch.Tensor):
            value = value.item()
        setattr(self, name, getattr(self, name) + value)  # ok


class Agg:
    pass


torch.manual_seed(0)
enc = nn.Linear(6, 2)
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
bag, sbag, det_bag = Bag("loss", "pull"), ScalarBag("loss", "pull"), ScalarBag("loss")
agg, agg_f = Agg(), Agg()

for i in range(6):
    x = torch.randn(8, 6)
    z = enc(x)
    pull = z.pow(2).sum(1).mean()
    push = torch.relu(1 - torch.pdist(z)).mean()
    loss = pull + push
    opt.zero_grad()
    loss.backward()
    opt.step()
    bag.add("loss", loss)  # either: TEN501
    sbag.add("loss", loss)  # ok
    sbag.add("pull", pull)  # ok
    det_bag.add("loss", loss.detach())  # ok
    for name, term in {"pull": pull, "push": push}.items():
        setattr(agg, name, getattr(agg, name, 0.0) + term)  # expect: TEN501
        setattr(agg_f, name, getattr(agg_f, name, 0.0) + term.item())  # ok

print(bag.as_dict(), sbag.as_dict(), det_bag.as_dict(), round(agg_f.push, 3))
