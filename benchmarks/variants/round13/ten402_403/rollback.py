"""Guard against loss spikes: roll model and optimizer back to the last good step."""
import copy
import math

import torch
from torch import nn
import torch.nn.functional as F


class SpikeGuard:
    def __init__(self, model, optimizer, factor=3.0, every=5):
        self.model = model
        self.optimizer = optimizer
        self.factor = factor
        self.every = every
        self.running = None
        self.good_model = None
        self.good_optim = None
        self.rollbacks = 0

    def checkpoint(self):
        self.good_model = copy.deepcopy(self.model.state_dict())  # ok
        self.good_optim = self.optimizer.state_dict()  # expect: TEN402

    def observe(self, step, loss):
        """Returns True if the step was rolled back."""
        bad = not math.isfinite(loss) or (self.running is not None and loss > self.factor * self.running)
        if bad and self.good_model is not None:
            self.model.load_state_dict(self.good_model)
            self.optimizer.load_state_dict(self.good_optim)
            self.rollbacks += 1
            return True
        self.running = loss if self.running is None else 0.9 * self.running + 0.1 * loss
        if step % self.every == 0:
            self.checkpoint()
        return False


def noisy_batches(n_steps, seed=0):
    g = torch.Generator().manual_seed(seed)
    for step in range(n_steps):
        x = torch.randn(16, 4, generator=g)
        y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]])
        if step == 13:
            y = y * 1e3  # corrupted batch
        yield step, x, y


def train(n_steps=20, seed=0):
    torch.manual_seed(seed)
    model = nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    guard = SpikeGuard(model, opt)
    lr_trace = []
    for step, x, y in noisy_batches(n_steps, seed):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        lr_trace.append([g["lr"] for g in opt.param_groups])  # ok
        guard.observe(step, loss.item())
    return model, opt, guard


if __name__ == "__main__":
    model, opt, guard = train()
    print("rollbacks", guard.rollbacks)
    print("weights", model.weight.data.tolist())
