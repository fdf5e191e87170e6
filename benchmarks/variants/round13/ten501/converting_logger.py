"""A kwargs-style run logger that normalises every value before keeping it."""
import json
import math
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


def to_py(value):
    if isinstance(value, torch.Tensor):
        value = value.detach()
        return value.item() if value.numel() == 1 else value.cpu().tolist()
    if isinstance(value, dict):
        return {k: to_py(v) for k, v in value.items()}
    return value


class RunLogger:
    def __init__(self):
        self.rows = []
        self.series = defaultdict(list)

    def log(self, step=None, **metrics):
        row = {k: to_py(v) for k, v in metrics.items()}
        self.rows.append({"step": step, **row})
        for k, v in row.items():
            self.series[k].append(v)

    def add_scalar(self, tag, value, global_step):
        self.series[tag].append(float(value))

    def dump(self):
        return json.dumps(self.rows[-1])


class TwoTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 16), nn.ReLU())
        self.a = nn.Linear(16, 2)
        self.b = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.a(h), self.b(h).squeeze(-1)


def main(steps=4):
    torch.manual_seed(0)
    model = TwoTask()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    logger = RunLogger()
    ema = None
    for step in range(steps):
        x = torch.randn(12, 5)
        ya, yb = (x[:, 0] > 0).long(), x[:, 1] * 3
        la, lb = model(x)
        parts = {"cls": F.cross_entropy(la, ya), "reg": F.mse_loss(lb, yb)}
        loss = parts["cls"] + 0.1 * parts["reg"]
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        logger.log(step=step, loss=loss, grad_norm=gn)  # ok
        logger.log(step=step, **parts)  # ok
        logger.log(step=step, probs=la.softmax(-1)[:2])  # ok
        logger.add_scalar("train/loss", loss, step)  # ok
        ema = loss.item() if ema is None else 0.8 * ema + 0.2 * loss.item()
        logger.log(step=step, loss_ema=ema, ppl_like=math.exp(min(ema, 20.0)))  # ok
    print(logger.dump())
    return logger


if __name__ == "__main__":
    main()
