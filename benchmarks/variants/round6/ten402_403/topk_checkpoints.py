"""Keep the k best checkpoints, in memory and on disk.

Modelled on the save_top_k logic of Lightning's ModelCheckpoint and on
small CheckpointManager classes found in research repos.
"""
import heapq
import os
import tempfile

import torch
from torch import nn


class InMemoryTopK:
    """Min-heap on score: the root is the worst of the kept checkpoints."""

    def __init__(self, k=3):
        self.k = k
        self._heap = []
        self._counter = 0

    def consider(self, score, model):
        self._counter += 1
        heapq.heappush(self._heap, (score, self._counter, model.state_dict()))  # expect: TEN402
        if len(self._heap) > self.k:
            heapq.heappop(self._heap)
        return len(self._heap)

    def best(self):
        return max(self._heap, key=lambda item: item[0])[2]


class DiskTopK:
    def __init__(self, dirpath, k=3):
        self.dirpath = dirpath
        self.k = k
        self._heap = []

    def consider(self, score, step, model):
        path = os.path.join(self.dirpath, f"step{step:05d}.pt")
        if len(self._heap) < self.k:
            torch.save(model.state_dict(), path)  # ok
            heapq.heappush(self._heap, (score, path))
        elif score > self._heap[0][0]:
            torch.save(model.state_dict(), path)  # ok
            _, old = heapq.heapreplace(self._heap, (score, path))
            os.remove(old)

    def best_path(self):
        return max(self._heap)[1]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Linear(5, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.3)
    x, y = torch.randn(40, 5), torch.randint(0, 2, (40,))
    mem = InMemoryTopK(k=2)
    with tempfile.TemporaryDirectory() as d:
        disk = DiskTopK(d, k=2)
        for step in range(15):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            score = -loss.item()
            mem.consider(score, net)
            disk.consider(score, step, net)
        on_disk = torch.load(disk.best_path())
        in_mem = mem.best()
        print("in-memory best equals disk best:", torch.equal(on_disk["weight"], in_mem["weight"]))
