"""Learning-rate range test that must leave the model untouched afterwards."""
import copy
import math

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LRFinder:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn

    def _state(self):
        return self.model.state_dict()  # either

    def _state_copy(self):
        return copy.deepcopy(self.model.state_dict())  # ok

    def range_test(self, x, y, start_lr=1e-4, end_lr=1.0, steps=30, safe=False):
        if safe:
            self._start = self._state_copy()  # ok
        else:
            self._start = self._state()  # expect: TEN402
        self._opt_start = copy.deepcopy(self.optimizer.state_dict())  # ok
        mult = (end_lr / start_lr) ** (1 / steps)
        lr, history = start_lr, []
        for _ in range(steps):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            history.append((lr, loss.item()))
            if not math.isfinite(loss.item()) or loss.item() > 4 * history[0][1]:
                break
            lr *= mult
        return history

    def reset(self):
        self.model.load_state_dict(self._start)
        self.optimizer.load_state_dict(self._opt_start)


def probe(safe):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
    x = torch.randn(64, 3)
    y = x.prod(1, keepdim=True)
    before = [p.detach().clone() for p in model.parameters()]  # ok
    finder = LRFinder(model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), nn.MSELoss())
    hist = finder.range_test(x, y, safe=safe)
    finder.reset()
    moved = max((a - b).abs().max().item() for a, b in zip(before, model.parameters()))
    best_lr = min(hist, key=lambda h: h[1])[0]
    return best_lr, moved


if __name__ == "__main__":
    print("aliased start state: best lr %.4g, max weight change after reset %.4g" % probe(False))
    print("deep-copied state:   best lr %.4g, max weight change after reset %.4g" % probe(True))
