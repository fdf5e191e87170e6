"""Keeps the top-k checkpoints in memory and writes the best one at the end."""
import heapq
import os

import torch
import torch.nn as nn


class CheckpointManager:
    def __init__(self, directory, keep=3, higher_is_better=True):
        self.directory = directory
        self.keep = keep
        self.sign = 1.0 if higher_is_better else -1.0
        self._heap = []  # (signed metric, step, state)
        self._step = 0

    def consider(self, model, metric):
        self._step += 1
        state = dict(model.state_dict())  # expect: TEN402
        item = (self.sign * metric, self._step, state)
        if len(self._heap) < self.keep:
            heapq.heappush(self._heap, item)
        elif item[0] > self._heap[0][0]:
            heapq.heapreplace(self._heap, item)

    def best(self):
        if not self._heap:
            return None
        return max(self._heap, key=lambda it: it[0])

    def finalize(self, model, name="best.pt"):
        os.makedirs(self.directory, exist_ok=True)
        best = self.best()
        if best is None:
            return None
        _, step, state = best
        path = os.path.join(self.directory, name)
        torch.save({"step": step, "model": state}, path)
        model.load_state_dict(state)
        return path


def accuracy(logits, target):
    return (logits.argmax(dim=-1) == target).float().mean().item()


def train_classifier(model, loader, val_batch, directory, epochs=4):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    manager = CheckpointManager(directory, keep=2)
    crit = nn.CrossEntropyLoss()
    for _ in range(epochs):
        for xb, yb in loader:
            opt.zero_grad(set_to_none=True)
            crit(model(xb), yb).backward()
            opt.step()
        with torch.no_grad():
            vx, vy = val_batch
            manager.consider(model, accuracy(model(vx), vy))
    return manager.finalize(model)


if __name__ == "__main__":
    import tempfile

    torch.manual_seed(1)
    data = [(torch.randn(32, 10), torch.randint(0, 3, (32,))) for _ in range(4)]
    clf = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    with tempfile.TemporaryDirectory() as tmp:
        print(train_classifier(clf, data, data[0], tmp))
