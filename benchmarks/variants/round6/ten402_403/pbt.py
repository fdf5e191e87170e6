"""Population-based training (Jaderberg et al. 2017), single-process toy version.

Members train asynchronously-ish in a round-robin loop; each member writes
its latest checkpoint into a shared table, and weak members exploit by
loading a strong member's checkpoint and then explore by perturbing the lr.
"""
import copy
import random

import torch
from torch import nn


class Member:
    def __init__(self, idx, lr):
        self.idx = idx
        self.model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.score = float("-inf")

    @property
    def lr(self):
        return self.opt.param_groups[0]["lr"]

    def set_lr(self, lr):
        for g in self.opt.param_groups:
            g["lr"] = lr

    def step(self, data, n=5):
        x, y = data
        for _ in range(n):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.model(x), y).backward()
            self.opt.step()

    @torch.no_grad()
    def evaluate(self, data):
        x, y = data
        self.score = -nn.functional.mse_loss(self.model(x), y).item()
        return self.score


class PopulationTable:
    def __init__(self):
        self.checkpoints = {}
        self.scores = {}

    def report(self, member):
        self.checkpoints[member.idx] = copy.copy(member.model.state_dict())  # expect: TEN402
        self.scores[member.idx] = member.score

    def ranking(self):
        return sorted(self.scores, key=self.scores.get, reverse=True)


def exploit_explore(member, table, quantile=0.25):
    ranked = table.ranking()
    cut = max(1, int(len(ranked) * quantile))
    if member.idx in ranked[-cut:]:
        donor = random.choice(ranked[:cut])
        member.model.load_state_dict(table.checkpoints[donor])
        member.set_lr(member.lr * random.choice([0.8, 1.2]))
        return donor
    return None


def synchronous_exploit(population, data):
    """Variant with a barrier: copy straight from the live donor model."""
    for m in population:
        m.evaluate(data)
    ranked = sorted(population, key=lambda m: m.score, reverse=True)
    best, worst = ranked[0], ranked[-1]
    worst.model.load_state_dict(best.model.state_dict())  # ok
    worst.opt.load_state_dict(best.opt.state_dict())
    worst.set_lr(best.lr * 1.2)


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    data = (torch.randn(64, 6), torch.randn(64, 1))
    pop = [Member(i, lr) for i, lr in enumerate([0.001, 0.01, 0.05, 0.1])]
    table = PopulationTable()
    for generation in range(4):
        for m in pop:
            m.step(data)
            m.evaluate(data)
            table.report(m)
            if generation > 0:
                exploit_explore(m, table)
    synchronous_exploit(pop, data)
    print({m.idx: round(m.score, 3) for m in pop})
