"""Trainer with accessor methods; the caller decides whether the result is a snapshot."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.best_acc = -1.0
        self._best = None
        self._initial = None

    def weights(self):
        return self.model.state_dict()  # either

    def weights_copy(self):
        return copy.deepcopy(self.model.state_dict())  # ok

    def _epoch(self, x, y):
        for i in range(0, len(x), 16):
            self.opt.zero_grad()
            F.cross_entropy(self.model(x[i:i + 16]), y[i:i + 16]).backward()
            self.opt.step()

    def _accuracy(self, x, y):
        with torch.no_grad():
            return (self.model(x).argmax(1) == y).float().mean().item()

    def train(self, x, y, xv, yv, epochs=8):
        self._initial = self.weights_copy()  # ok
        for _ in range(epochs):
            self._epoch(x, y)
            acc = self._accuracy(xv, yv)
            if acc > self.best_acc:
                self.best_acc = acc
                self._best = self.weights()  # expect: TEN402
        self.restore_best()

    def restore_best(self):
        self.model.load_state_dict(self._best)

    def reset(self):
        self.model.load_state_dict(self._initial)


if __name__ == "__main__":
    x, y = torch.randn(160, 6), torch.randint(0, 3, (160,))
    t = Trainer(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)))
    t.train(x[:128], y[:128], x[128:], y[128:])
    print("best acc", t.best_acc, "restored acc", t._accuracy(x[128:], y[128:]))
    t.reset()
    print("acc after reset", t._accuracy(x[128:], y[128:]))
