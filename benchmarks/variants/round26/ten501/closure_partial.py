"""Logging through closures and functools.partial callbacks."""
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)


def make_accumulator():
    total = 0.0
    n = 0

    def add(value):
        nonlocal total, n
        total = total + value
        n += 1
        return total / n

    return add


def append_to(store, key, value):
    store.setdefault(key, []).append(value)


model = nn.Linear(10, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
acc = make_accumulator()
acc_f = make_accumulator()
store, store_f = {}, {}
log_loss = functools.partial(append_to, store, "loss")
log_loss_f = functools.partial(append_to, store_f, "loss")
on_step_end = []
on_step_end.append(functools.partial(append_to, store, "logits_mean"))
for step in range(8):
    x = torch.randn(20, 10)
    y = (x[:, 0] > 0).long()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    avg = acc(loss)  # expect: TEN501
    avg_f = acc_f(loss.item())  # ok
    log_loss(loss)  # expect: TEN501
    log_loss_f(loss.detach())  # ok
    for fn in on_step_end:
        fn(logits.mean())  # expect: TEN501
print("avg", round(avg.item(), 4), round(avg_f, 4), len(store["loss"]), len(store_f["loss"]))
