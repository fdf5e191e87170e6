"""Logging through functools.partial, lambdas and small helper functions."""
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def record(store, key, value):
    store.setdefault(key, []).append(value)


def push(buf, value):
    buf.append(value)
    return len(buf)


model = nn.Sequential(nn.Linear(4, 8), nn.Sigmoid(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

store = {}
raw_buf, item_buf, norm_buf = [], [], []
log_loss = functools.partial(record, store, "loss")
log_out = functools.partial(record, store, "out_mean")
push_raw = lambda v: raw_buf.append(v)
push_item = lambda v: item_buf.append(v)

for step in range(10):
    x = torch.randn(12, 4)
    y = torch.sin(x.sum(1, keepdim=True))
    pred = model(x)
    loss = nn.functional.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()

    log_loss(loss)  # expect: TEN501
    log_out(pred.mean().item())  # ok
    push_raw(loss)  # expect: TEN501
    push_item(loss.item())  # ok
    push(norm_buf, pred.norm())  # expect: TEN501
    record(store, "pred_max", pred.max().detach())  # ok

print({k: len(v) for k, v in store.items()})
print("raw", round(float(sum(raw_buf)), 4), "item", round(sum(item_buf), 4), "norm", round(float(norm_buf[-1]), 4))
