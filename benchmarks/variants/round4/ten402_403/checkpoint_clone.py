"""Periodic checkpointing plus an in-memory 'last good' state for loss-spike rollback."""
import copy
import math
import os

import torch
import torch.nn as nn


class SpikeGuard:
    """Rolls the model and optimizer back if the loss explodes or becomes NaN."""

    def __init__(self, model, optimizer, factor=5.0):
        self.model = model
        self.optimizer = optimizer
        self.factor = factor
        self.running = None
        self.good_model = None
        self.good_optim = None

    def remember(self):
        self.good_model = {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok
        self.good_optim = copy.deepcopy(self.optimizer.state_dict())  # ok

    def check(self, loss):
        value = loss.item()
        spiked = not math.isfinite(value) or (
            self.running is not None and value > self.factor * self.running)
        if spiked and self.good_model is not None:
            self.model.load_state_dict(self.good_model)
            # optimizer.load_state_dict keeps references, so hand it a private copy
            self.optimizer.load_state_dict(copy.deepcopy(self.good_optim))
            return True
        self.running = value if self.running is None else 0.9 * self.running + 0.1 * value
        return False


def train(model, batches, ckpt_dir, save_every=10):
    os.makedirs(ckpt_dir, exist_ok=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    guard = SpikeGuard(model, opt)
    for step, (x, y) in enumerate(batches):
        if step % 5 == 0:
            guard.remember()
        loss = nn.functional.mse_loss(model(x), y)
        if guard.check(loss):
            continue
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % save_every == 0:
            torch.save(model.state_dict(), os.path.join(ckpt_dir, f"step{step}.pt"))  # ok
    return guard


if __name__ == "__main__":
    import tempfile

    torch.manual_seed(0)
    data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(25)]
    with tempfile.TemporaryDirectory() as d:
        train(nn.Linear(4, 2), data, d)
        print(sorted(os.listdir(d)))
