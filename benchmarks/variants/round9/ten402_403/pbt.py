"""Population-based training (Jaderberg et al., 2017) for a handful of workers in one process."""
import math
import random
from dataclasses import dataclass
from typing import NamedTuple

import torch


class Record(NamedTuple):
    member: int
    step: int
    score: float
    hparams: dict
    weights: dict


@dataclass
class Member:
    idx: int
    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    hparams: dict
    score: float = -math.inf


def apply_hparams(optimizer, hparams):
    for group in optimizer.param_groups:
        group["lr"] = hparams["lr"]
        group["weight_decay"] = hparams.get("weight_decay", group.get("weight_decay", 0.0))


class PBT:
    def __init__(self, population, train_fn, eval_fn, ready_every=1000, truncation=0.25,
                 perturb=(0.8, 1.25), seed=0):
        self.population = population
        self.train_fn = train_fn
        self.eval_fn = eval_fn
        self.ready_every = ready_every
        self.truncation = truncation
        self.perturb = perturb
        self.rng = random.Random(seed)
        self.history = []
        self.best = None

    def _report(self, member, step):
        rec = Record(member.idx, step, member.score, dict(member.hparams), member.model.state_dict())  # expect: TEN402
        self.history.append(rec)
        if self.best is None or rec.score > self.best.score:
            self.best = rec

    def _exploit_explore(self):
        ranked = sorted(self.population, key=lambda m: m.score, reverse=True)
        cut = max(1, int(len(ranked) * self.truncation))
        for loser in ranked[-cut:]:
            winner = self.rng.choice(ranked[:cut])
            if winner is loser:
                continue
            loser.model.load_state_dict(winner.model.state_dict())  # ok
            loser.hparams = {k: v * self.rng.choice(self.perturb) for k, v in winner.hparams.items()}
            apply_hparams(loser.optimizer, loser.hparams)
            loser.optimizer.state.clear()
            loser.score = winner.score

    def run(self, total_steps):
        step = 0
        while step < total_steps:
            for m in self.population:
                self.train_fn(m.model, m.optimizer, self.ready_every)
                m.score = self.eval_fn(m.model)
                self._report(m, step + self.ready_every)
            step += self.ready_every
            self._exploit_explore()
        return self.best

    def save_best(self, path):
        best = self.best
        torch.save(
            {"member": best.member, "step": best.step, "score": best.score,
             "hparams": best.hparams, "state_dict": best.weights},
            path,
        )


def make_population(model_fn, n, device, lr_range=(1e-4, 1e-2), seed=0):
    rng = random.Random(seed)
    pop = []
    for i in range(n):
        model = model_fn().to(device)
        hp = {"lr": 10 ** rng.uniform(math.log10(lr_range[0]), math.log10(lr_range[1])),
              "weight_decay": 10 ** rng.uniform(-6, -3)}
        opt = torch.optim.AdamW(model.parameters(), lr=hp["lr"], weight_decay=hp["weight_decay"])
        pop.append(Member(i, model, opt, hp))
    return pop
