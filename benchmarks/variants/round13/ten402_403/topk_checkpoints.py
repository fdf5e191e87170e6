"""Keep the k best checkpoints of a run in memory, then average or pick one."""
import heapq
import io
import itertools

import torch
from torch import nn
import torch.nn.functional as F


class TopKInMemory:
    """Min-heap on score; the worst of the kept checkpoints is evicted first."""

    def __init__(self, k=3):
        self.k = k
        self._heap = []
        self._tie = itertools.count()

    def offer(self, score, model):
        entry = (score, next(self._tie), model.state_dict())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif score > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def best(self):
        return max(self._heap, key=lambda e: e[0])[2]

    def averaged(self):
        states = [e[2] for e in self._heap]
        return {k: sum(s[k].float() for s in states) / len(states) for k in states[0]}


class TopKSerialized:
    """Same policy, but every checkpoint is serialized to bytes when offered."""

    def __init__(self, k=3):
        self.k = k
        self._heap = []
        self._tie = itertools.count()

    def offer(self, score, model):
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        entry = (score, next(self._tie), buf.getvalue())
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif score > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def best(self):
        blob = max(self._heap, key=lambda e: e[0])[2]
        return torch.load(io.BytesIO(blob), weights_only=True)  # ok


def train_with_keeper(keeper, epochs=10, seed=0):
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(120, 5, generator=g)
    y = (x.sum(1, keepdim=True) > 0).float()
    xv = torch.randn(60, 5, generator=g)
    yv = (xv.sum(1, keepdim=True) > 0).float()
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    scores = []
    for _ in range(epochs):
        opt.zero_grad()
        F.binary_cross_entropy_with_logits(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            acc = ((model(xv) > 0).float() == yv).float().mean().item()
        scores.append(acc)
        keeper.offer(acc, model)
    return model, scores


if __name__ == "__main__":
    for keeper in (TopKInMemory(), TopKSerialized()):
        model, scores = train_with_keeper(keeper)
        model.load_state_dict(keeper.best())
        print(type(keeper).__name__, "scores", [round(s, 3) for s in scores])
