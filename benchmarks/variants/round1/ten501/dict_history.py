"""Keeps a per-step training record for later plotting."""
import json
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 64), nn.Tanh(), nn.Linear(64, 3))

    def forward(self, x):
        return self.net(x)


def synthetic_batches(n_batches, bs=16):
    for _ in range(n_batches):
        x = torch.randn(bs, 10)
        yield x, (x[:, 0] > 0).long() + (x[:, 1] > 0).long()


def fit(model, opt, epochs=2):
    history = []
    by_step = []
    clean_log = []
    step = 0
    for epoch in range(epochs):
        for x, y in synthetic_batches(5):
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            history.append({"epoch": epoch, "step": step, "loss": loss})  # expect: TEN501
            by_step.append((step, loss))  # expect: TEN501
            clean_log.append({"step": step, "loss": loss.item()})  # ok
            step += 1
    return history, by_step, clean_log


if __name__ == "__main__":
    m = MLP()
    hist, pairs, log_rows = fit(m, torch.optim.Adam(m.parameters(), 1e-3))
    logger.info(json.dumps(log_rows[-1]))
