"""In-memory top-k checkpoint manager plus a byte-buffer variant."""
import heapq
import io
from dataclasses import dataclass, field

import torch
from torch import nn


class TopKInMemory:
    """Keeps the k best weight sets seen so far (lower score is better)."""

    def __init__(self, k=2):
        self.k = k
        self._heap = []  # (-score, step, weights)

    def offer(self, score, step, model):
        weights = {name: t for name, t in model.state_dict().items()}  # expect: TEN402
        heapq.heappush(self._heap, (-score, step, weights))
        if len(self._heap) > self.k:
            heapq.heappop(self._heap)

    def best(self):
        return max(self._heap, key=lambda e: e[0])


@dataclass
class BufferedCheckpoints:
    keep: int = 2
    blobs: list = field(default_factory=list)

    def offer(self, score, step, model):
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        self.blobs.append((score, step, buf.getvalue()))
        self.blobs.sort(key=lambda e: e[0])
        del self.blobs[self.keep:]

    def load_best(self, model):
        score, step, raw = self.blobs[0]
        model.load_state_dict(torch.load(io.BytesIO(raw)))
        return score, step


def detached_copy(model):
    return {n: t.detach().clone() for n, t in model.state_dict().items()}  # ok


def train(manager_cls):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 2))
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    data, target = torch.randn(48, 6), torch.randint(0, 2, (48,))
    held, held_y = torch.randn(24, 6), torch.randint(0, 2, (24,))
    manager = manager_cls()
    first = detached_copy(net)
    for step in range(10):
        loss = nn.functional.cross_entropy(net(data), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            score = nn.functional.cross_entropy(net(held), held_y).item()
        manager.offer(score, step, net)
    if isinstance(manager, TopKInMemory):
        neg, step, weights = manager.best()
        net.load_state_dict(weights)
        score = -neg
    else:
        score, step = manager.load_best(net)
    with torch.no_grad():
        now = nn.functional.cross_entropy(net(held), held_y).item()
    moved = sum((first[k] - v).abs().sum().item() for k, v in net.state_dict().items())
    print(f"{manager_cls.__name__}: best step {step} score {score:.4f}, reloaded {now:.4f}, moved {moved:.2f}")


if __name__ == "__main__":
    train(TopKInMemory)
    train(BufferedCheckpoints)
