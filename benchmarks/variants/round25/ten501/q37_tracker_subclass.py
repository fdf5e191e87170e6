import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tracker:
    def __init__(self):
        self.store = {}

    def add(self, key, value):
        self.store.setdefault(key, []).append(self._convert(value))

    def _convert(self, value):
        return value

    def result(self):
        return {k: sum(float(x) for x in v) / len(v) for k, v in self.store.items()}


class ScalarTracker(Tracker):
    def _convert(self, value):
        return value.item() if torch.is_tensor(value) else float(value)


def train(model, tracker, scalar_tracker, steps=10):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        x = torch.randn(25, 4)
        y = (x[:, 0] + x[:, 1] > 0).long()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (logits.argmax(-1) == y).float().mean()
        tracker.add("loss", loss)  # expect: TEN501
        tracker.add("acc", acc)  # ok
        scalar_tracker.add("loss", loss)  # ok
        scalar_tracker.add("margin", logits.max(1).values.mean())  # ok
        tracker.add("margin", logits.max(1).values.mean())  # expect: TEN501


t, st = Tracker(), ScalarTracker()
train(nn.Linear(4, 2), t, st)
print(t.result())
print(st.result())
