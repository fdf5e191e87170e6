"""Keep the k best sets of weights seen during training (in memory)."""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Dict, List

import torch


@dataclass(order=True)
class _Entry:
    score: float
    tiebreak: int
    weights: Dict[str, torch.Tensor] = field(compare=False)


class TopKKeeper:
    def __init__(self, k: int = 3, mode: str = "max"):
        assert mode in ("max", "min")
        self.k = k
        self.sign = 1.0 if mode == "max" else -1.0
        self._heap: List[_Entry] = []
        self._counter = itertools.count()

    def consider(self, model: torch.nn.Module, score: float) -> bool:
        key = self.sign * score
        if len(self._heap) >= self.k and key <= self._heap[0].score:
            return False
        entry = _Entry(key, next(self._counter), model.state_dict())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        else:
            heapq.heapreplace(self._heap, entry)
        return True

    def best(self) -> Dict[str, torch.Tensor]:
        return max(self._heap).weights

    def restore_best(self, model: torch.nn.Module) -> None:
        model.load_state_dict(self.best())

    def average_topk(self) -> Dict[str, torch.Tensor]:
        keys = self._heap[0].weights.keys()
        return {
            name: torch.stack([e.weights[name].float() for e in self._heap]).mean(0)
            for name in keys
        }


class ClonedTopKKeeper(TopKKeeper):
    """Variant that stores real copies (used by the ensemble export)."""

    def consider(self, model: torch.nn.Module, score: float) -> bool:
        key = self.sign * score
        if len(self._heap) >= self.k and key <= self._heap[0].score:
            return False
        frozen = {n: t.detach().clone() for n, t in model.state_dict().items()}  # ok
        entry = _Entry(key, next(self._counter), frozen)
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        else:
            heapq.heapreplace(self._heap, entry)
        return True


def train_with_topk(model, batches, val_fn, steps_per_eval=100):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    keeper = TopKKeeper(k=3, mode="max")
    for step, (x, y) in enumerate(batches, 1):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % steps_per_eval == 0:
            keeper.consider(model, val_fn(model))
    last = {name: t.detach().to("cpu", copy=True) for name, t in model.state_dict().items()}  # ok
    model.load_state_dict(keeper.average_topk())
    return model, last
