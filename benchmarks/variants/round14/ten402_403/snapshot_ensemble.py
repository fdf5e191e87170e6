"""Snapshot ensembling: average predictions of weights saved along training."""
from dataclasses import dataclass, field
from typing import Dict, List

import torch
from torch import nn
from torch.func import functional_call


@dataclass
class Snapshot:
    step: int
    weights: Dict[str, torch.Tensor]
    val_acc: float = 0.0


@dataclass
class SnapshotBank:
    every: int = 4
    copy_weights: bool = True
    items: List[Snapshot] = field(default_factory=list)

    def maybe_add(self, step, model, val_acc):
        if step % self.every:
            return
        if self.copy_weights:
            self.items.append(Snapshot(step, {n: p.detach().clone() for n, p in model.named_parameters()}, val_acc))  # ok
        else:
            self.items.append(Snapshot(step, dict(model.named_parameters()), val_acc))  # expect: TEN402

    def ensemble_logits(self, model, x):
        with torch.no_grad():
            outs = [functional_call(model, s.weights, (x,)) for s in self.items]
        return torch.stack(outs).mean(0)


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def run(copy_weights):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    x, y = torch.randn(200, 6), torch.randint(0, 3, (200,))
    xv, yv = torch.randn(100, 6), torch.randint(0, 3, (100,))
    bank = SnapshotBank(every=4, copy_weights=copy_weights)
    for step in range(1, 17):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            bank.maybe_add(step, model, accuracy(model(xv), yv))
    w = [s.weights["0.weight"] for s in bank.items]
    same = all(torch.equal(w[0], v) for v in w[1:])
    ens = accuracy(bank.ensemble_logits(model, xv), yv)
    print(f"copy_weights={copy_weights}: {len(bank.items)} snapshots, all identical={same}, ensemble acc={ens:.3f}")


if __name__ == "__main__":
    run(copy_weights=False)
    run(copy_weights=True)
