"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis)."""
import copy
from typing import Dict

import torch
from torch import nn


class LotteryTicketPruner:
    def __init__(self, model: nn.Module, prune_frac: float = 0.2, rewind_iter: int = 0):
        self.model = model
        self.prune_frac = prune_frac
        self.rewind_iter = rewind_iter
        self.masks: Dict[str, torch.Tensor] = {
            n: torch.ones_like(p) for n, p in model.named_parameters() if p.dim() > 1
        }
        self.init_state = self.model.state_dict()  # expect: TEN402
        self.rewind_state = None

    def _apply_masks(self):
        with torch.no_grad():
            for n, p in self.model.named_parameters():
                if n in self.masks:
                    p.mul_(self.masks[n])

    def train_round(self, loader, epochs, lr=0.1):
        opt = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        it = 0
        for _ in range(epochs):
            for x, y in loader:
                if it == self.rewind_iter and self.rewind_iter > 0 and self.rewind_state is None:
                    self.rewind_state = copy.deepcopy(self.model.state_dict())  # ok
                opt.zero_grad()
                nn.functional.cross_entropy(self.model(x), y).backward()
                opt.step()
                self._apply_masks()
                it += 1

    def prune(self):
        with torch.no_grad():
            for n, p in self.model.named_parameters():
                if n not in self.masks:
                    continue
                alive = p[self.masks[n].bool()].abs()
                k = int(self.prune_frac * alive.numel())
                if k == 0:
                    continue
                threshold = alive.kthvalue(k).values
                self.masks[n] = self.masks[n] * (p.abs() > threshold).float()

    def rewind(self):
        source = self.rewind_state if self.rewind_state is not None else self.init_state
        self.model.load_state_dict(source)
        self._apply_masks()

    def sparsity(self):
        total = sum(m.numel() for m in self.masks.values())
        zeros = sum((m == 0).sum().item() for m in self.masks.values())
        return zeros / total


def find_ticket(model, loader, rounds=5, epochs=3):
    pruner = LotteryTicketPruner(model, prune_frac=0.2)
    for r in range(rounds):
        pruner.train_round(loader, epochs)
        pruner.prune()
        pruner.rewind()
        print(f"round {r}: sparsity {pruner.sparsity():.2%}")
    ticket = {n: m.clone() for n, m in pruner.masks.items()}  # ok
    return ticket
