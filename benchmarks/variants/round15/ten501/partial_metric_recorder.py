"""Metric recording through functools.partial-bound helpers."""
import functools
from collections import defaultdict

import torch
import torch.nn as nn


def store_metric(history, name, value, step=None):
    history[name].append((step, value))


def store_scalar(history, name, value, step=None):
    history[name].append((step, float(value)))


def make_recorders(train_hist, eval_hist):
    return {
        "loss": functools.partial(store_metric, train_hist, "loss"),
        "acc": functools.partial(store_metric, train_hist, "acc"),
        "margin": functools.partial(store_scalar, eval_hist, "margin"),
    }


def hinge_loss(scores, y):
    correct = scores.gather(1, y[:, None])
    return torch.clamp(1 + scores - correct, min=0).sum(1).mean() - 1


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(10, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_hist, eval_hist = defaultdict(list), defaultdict(list)
    rec = make_recorders(train_hist, eval_hist)
    record_loss, record_acc, record_margin = rec["loss"], rec["acc"], rec["margin"]
    for step in range(6):
        x, y = torch.randn(16, 10), torch.randint(0, 4, (16,))
        scores = model(x)
        loss = hinge_loss(scores, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        record_loss(loss, step=step)  # expect: TEN501
        record_acc((scores.argmax(1) == y).float().mean(), step=step)  # ok
        record_margin(scores.max(1).values.mean(), step=step)  # ok
    print(len(train_hist["loss"]), eval_hist["margin"][-1])
