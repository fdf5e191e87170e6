"""Loss-spike / NaN guard that rewinds to a recent good state.

Similar to the "skip bad batches and roll back" logic in large-scale
training loops (e.g. OPT/BLOOM logbooks, fairseq's --rollback behaviour).
"""
import collections
import math

import torch
from torch import nn


class SpikeGuard:
    def __init__(self, model, optimizer, keep=3, spike_factor=4.0):
        self.model = model
        self.optimizer = optimizer
        self.history = collections.deque(maxlen=keep)
        self.spike_factor = spike_factor
        self.ema_loss = None

    def after_step(self, loss_value):
        bad = math.isnan(loss_value) or (
            self.ema_loss is not None and loss_value > self.spike_factor * self.ema_loss)
        if bad:
            return self.rollback()
        self.ema_loss = loss_value if self.ema_loss is None else 0.9 * self.ema_loss + 0.1 * loss_value
        self.history.append(self.model.state_dict())  # expect: TEN402
        return False

    def rollback(self):
        if not self.history:
            return False
        self.model.load_state_dict(self.history[0])
        for group in self.optimizer.param_groups:
            group["lr"] *= 0.5
        return True


class ClonedSpikeGuard(SpikeGuard):
    def after_step(self, loss_value):
        if math.isnan(loss_value):
            return self.rollback()
        self.history.append({k: v.clone() for k, v in self.model.state_dict().items()})  # ok
        return False


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Linear(4, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    guard = SpikeGuard(net, opt)
    safe = ClonedSpikeGuard(nn.Linear(4, 1), opt)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    rolled = 0
    for step in range(30):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(x), y)
        if step == 20:
            loss = loss * float("nan")
        loss.backward()
        opt.step()
        rolled += guard.after_step(loss.item())
        safe.after_step(loss.item())
    print("rollbacks:", rolled, "weights finite:", bool(torch.isfinite(net.weight).all()))
