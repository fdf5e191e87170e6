"""Snapshots whose model is replaced by a fresh object, versus one reached through an alias."""
import io

import torch
import torch.nn as nn


def train(m, steps=3):
    opt = torch.optim.SGD(m.parameters(), lr=0.2)
    x, y = torch.randn(10, 3), torch.randn(10, 1)
    for _ in range(steps):
        opt.zero_grad()
        ((m(x) - y) ** 2).mean().backward()
        opt.step()


def total(sd):
    return sum(v.sum().item() for v in sd.values())


torch.manual_seed(0)
model = nn.Linear(3, 1)
old_snapshot = model.state_dict()  # ok
old_total = total(old_snapshot)
model = nn.Linear(3, 1)  # the name now refers to a new model; the old one is never trained
train(model)
print("old snapshot unchanged: %.6f vs %.6f" % (total(old_snapshot), old_total))

buf = io.BytesIO()
torch.save(model.state_dict(), buf)  # ok
train(model)
buf.seek(0)
print("saved bytes vs current: %.6f vs %.6f" % (total(torch.load(buf)), total(model.state_dict())))

# the same model reached through a second name
net = model
start = net.state_dict()  # expect: TEN402
train(model)
print("change since start: %.6f" % (total(model.state_dict()) - total(start)))
