"""functools.partial bound loggers."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def log_metric(store, split, value, step=None):
    store.setdefault(split, []).append((step, value))


train_store, val_store, value_store = {}, {}, {}
log_train = functools.partial(log_metric, train_store, "train")
log_val = functools.partial(log_metric, val_store, "val")
log_value = functools.partial(log_metric, value_store, "train")

net = nn.Sequential(nn.Linear(6, 6), nn.GELU(), nn.Linear(6, 3))
opt = torch.optim.AdamW(net.parameters(), lr=5e-3)
xv, yv = torch.randn(20, 6), torch.randint(0, 3, (20,))

for step in range(9):
    xb, yb = torch.randn(16, 6), torch.randint(0, 3, (16,))
    loss = F.cross_entropy(net(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log_train(loss, step=step)  # expect: TEN501
    log_value(loss.item(), step=step)  # ok
    if step % 3 == 0:
        with torch.no_grad():
            val_loss = F.cross_entropy(net(xv), yv)
        log_val(val_loss, step=step)  # ok

print(len(train_store["train"]), val_store["val"][-1][1].item())
