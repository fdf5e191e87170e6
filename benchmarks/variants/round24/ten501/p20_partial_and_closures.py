"""Metric recording through functools.partial and closures with nonlocal state."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def append_metric(store, key, value):
    store.setdefault(key, []).append(value)


def make_accumulator():
    total = 0.0
    count = 0

    def add(v):
        nonlocal total, count
        total = total + v
        count += 1

    def mean():
        return total / max(count, 1)

    return add, mean


def train(epochs=2):
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    history = {}
    record_loss = functools.partial(append_metric, history, "loss")
    record_acc = functools.partial(append_metric, history, "acc")
    record_loss_val = functools.partial(append_metric, history, "loss_value")
    add, mean = make_accumulator()
    add_f, mean_f = make_accumulator()
    for epoch in range(epochs):
        for _ in range(3):
            x, y = torch.randn(7, 5), torch.randint(0, 2, (7,))
            out = model(x)
            loss = F.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            record_loss(loss)  # expect: TEN501
            record_acc((out.argmax(1) == y).sum().item() / len(y))  # ok
            record_loss_val(loss.detach())  # ok
            add(loss)  # expect: TEN501
            add_f(loss.item())  # ok
    return history, float(mean()), mean_f()


if __name__ == "__main__":
    h, m, mf = train()
    print(len(h["loss"]), m, mf)
