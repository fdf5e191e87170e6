"""Logging through closures, functools.partial and lambdas."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_recorder():
    store = []

    def record(value):
        store.append(value)

    return record, store


def make_accumulator():
    total = 0.0
    count = 0

    def add(value, n=1):
        nonlocal total, count
        total = total + value * n
        count += n
        return total / count

    return add


def log_into(history, key, value, step=None):
    history.setdefault(key, []).append((step, value))


record_loss, loss_store = make_recorder()
record_norm, norm_store = make_recorder()
accumulate = make_accumulator()
accumulate_ok = make_accumulator()
history, history_ok = {}, {}
log_loss = functools.partial(log_into, history, "loss")
log_loss_ok = functools.partial(log_into, history_ok, "loss")
log_reg = functools.partial(log_into, history_ok, "l2")
tracked = []
track = lambda v: tracked.append(v)  # noqa: E731

x = torch.randn(200, 5)
y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]])
model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(25):
    i = (step * 20) % 200
    pred = model(x[i:i + 20])
    mse = F.mse_loss(pred, y[i:i + 20])
    l2 = sum(p.pow(2).sum() for p in model.parameters())
    loss = mse + 1e-3 * l2
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 100.0)
    opt.step()

    record_loss(loss)  # expect: TEN501
    record_norm(norm)  # ok
    accumulate(mse, len(pred))  # expect: TEN501
    running_ok = accumulate_ok(mse.item(), len(pred))  # ok
    log_loss(loss, step=step)  # expect: TEN501
    log_loss_ok(loss.item(), step=step)  # ok
    log_reg(l2)  # expect: TEN501
    track(mse)  # expect: TEN501
    track(loss.detach())  # ok

print("recorded:", len(loss_store), "last loss:", loss_store[-1].item(), "mean norm:", torch.stack(norm_store).mean().item())
print("running mean:", float(accumulate(0.0, 0)), "ok mean:", running_ok)
print("history:", len(history["loss"]), "l2 last:", history_ok["l2"][-1][1].item(), "tracked:", len(tracked))
