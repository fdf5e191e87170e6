"""Single-process population based training (truncation selection exploit, perturb explore)."""
from dataclasses import dataclass
from typing import Dict, List

import numpy as np
import torch
import torch.nn.functional as F

from weights import get_checkpoint, get_weights, perturb, set_weights


@dataclass
class Entry:
    score: float
    weights: Dict[str, torch.Tensor]
    hparams: dict
    step: int


class Worker:
    def __init__(self, wid, model, hparams, device):
        self.wid = wid
        self.model = model.to(device)
        self.hparams = hparams
        self.device = device
        self.optimizer = torch.optim.SGD(model.parameters(), lr=hparams["lr"], momentum=hparams["momentum"])
        self.steps = 0

    def _sync_hparams(self):
        for g in self.optimizer.param_groups:
            g["lr"] = self.hparams["lr"]
            g["momentum"] = self.hparams["momentum"]

    def train(self, data_iter, n_steps):
        self._sync_hparams()
        self.model.train()
        for _ in range(n_steps):
            x, y = next(data_iter)
            loss = F.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.steps += 1

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = n = 0
        for x, y in loader:
            correct += (self.model(x.to(self.device)).argmax(1).cpu() == y).sum().item()
            n += y.numel()
        return correct / n


class PBT:
    def __init__(self, workers, data_iter, val_loader, steps_per_round=500, frac=0.25, seed=0):
        self.workers = workers
        self.data_iter = data_iter
        self.val_loader = val_loader
        self.steps_per_round = steps_per_round
        self.frac = frac
        self.rng = np.random.RandomState(seed)
        self.history: List[Entry] = []
        self.best_score = float("-inf")
        self.best_ckpt = None

    def _recent(self):
        return self.history[-2 * len(self.workers):]

    def _exploit(self, worker, score):
        recent = sorted(self._recent(), key=lambda e: e.score)
        cut = max(1, int(len(recent) * self.frac))
        if score > recent[cut - 1].score:
            return False
        donor = recent[-1 - self.rng.randint(cut)]
        set_weights(worker.model, donor.weights)
        worker.hparams = perturb(donor.hparams, self.rng)
        return True

    def run(self, rounds):
        for rnd in range(rounds):
            for w in self.workers:
                w.train(self.data_iter, self.steps_per_round)
                score = w.evaluate(self.val_loader)
                self.history.append(Entry(score, get_weights(w.model), dict(w.hparams), w.steps))  # expect: TEN402
                if score > self.best_score:
                    self.best_score = score
                    self.best_ckpt = get_checkpoint(w.model, w.optimizer)  # ok
                if rnd > 0 and self._exploit(w, score):
                    print(f"round {rnd}: worker {w.wid} exploited, new hparams {w.hparams}")
        return max(self.history, key=lambda e: e.score)
