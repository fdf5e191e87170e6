"""Keep the k best checkpoints in memory and average them at the end."""
import copy
import heapq

import torch
from torch import nn

torch.manual_seed(0)


class TopKAverager:
    """Min-heap keyed on -val_loss so the worst kept checkpoint pops first."""

    def __init__(self, k):
        self.k = k
        self.heap = []

    def consider(self, step, val_loss, model):
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, (-val_loss, step, model.state_dict()))  # expect: TEN402
        elif -val_loss > self.heap[0][0]:
            heapq.heapreplace(self.heap, (-val_loss, step, model.state_dict()))  # expect: TEN402

    def average(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


class HistoryAverager:
    """Keeps every checkpoint of the last few evaluations (list-based)."""

    def __init__(self, keep):
        self.keep = keep
        self.history = []

    def consider(self, step, model):
        self.history.append({k: v for k, v in model.state_dict().items()})  # expect: TEN402
        self.history = self.history[-self.keep:]

    def average(self):
        return {k: torch.stack([h[k] for h in self.history]).mean(0) for k in self.history[0]}


class SafeTopK(TopKAverager):
    def consider(self, step, val_loss, model):
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, (-val_loss, step, copy.deepcopy(model.state_dict())))  # ok
        elif -val_loss > self.heap[0][0]:
            heapq.heapreplace(self.heap, (-val_loss, step, copy.deepcopy(model.state_dict())))  # ok


def train(averagers):
    torch.manual_seed(3)
    model = nn.Linear(5, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x, xv = torch.randn(16, 5), torch.randn(64, 5)
    w = torch.randn(5, 1)
    y, yv = x @ w + 0.5 * torch.randn(16, 1), xv @ w
    for step in range(12):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        with torch.no_grad():
            vl = ((model(xv) - yv) ** 2).mean().item()
        for a in averagers:
            if isinstance(a, HistoryAverager):
                a.consider(step, model)
            else:
                a.consider(step, vl, model)
    return model


topk, hist, safe = TopKAverager(6), HistoryAverager(4), SafeTopK(6)
model = train([topk, hist, safe])
print("final weight      ", [round(v, 5) for v in model.weight.flatten().tolist()])
for name, avg in (("top-k average", topk.average()), ("last-4 average", hist.average()),
                  ("safe top-k avg", safe.average())):
    print(f"{name:<18}", [round(v, 5) for v in avg["weight"].flatten().tolist()],
          round(avg["bias"].item(), 5))
print("kept steps", sorted(s for _, s, _ in topk.heap), sorted(s for _, s, _ in safe.heap))
