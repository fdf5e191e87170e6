"""Keep the k best checkpoints in memory (min-heap on score) and roll back on NaN."""
import heapq
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TopKCheckpoints:
    """Keeps the k highest-scoring model states in a heap."""

    def __init__(self, k=3):
        self.k = k
        self.heap = []
        self._tie = itertools.count()
        self.last = None

    def update(self, score, model):
        entry = (score, next(self._tie), model.state_dict())  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        elif score > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)
        self.last = dict(model.state_dict())  # expect: TEN402

    def best_state(self):
        return max(self.heap)[2]


class SafeTopKCheckpoints(TopKCheckpoints):
    def update(self, score, model):
        state = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        entry = (score, next(self._tie), state)  # ok
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        elif score > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)


def average_states(states):
    keys = states[0].keys()
    return {k: torch.stack([s[k].float() for s in states]).mean(0) for k in keys}


def train(manager, steps=40):
    model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(128, 4), torch.randint(0, 2, (128,))
    for step in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if step % 5 == 4:
            with torch.no_grad():
                acc = (model(x).argmax(1) == y).float().mean().item()
            manager.update(acc, model)
    avg = average_states([s for _, _, s in manager.heap])  # ok
    model.load_state_dict(avg)
    return model, manager


if __name__ == "__main__":
    _, bad = train(TopKCheckpoints())
    _, good = train(SafeTopKCheckpoints())
    a = [s for _, _, s in bad.heap]
    print("live heap entries identical:", all(torch.equal(a[0][k], a[-1][k]) for k in a[0]))
    b = [s for _, _, s in good.heap]
    print("copied heap entries identical:", all(torch.equal(b[0][k], b[-1][k]) for k in b[0]))
