"""Dynamic attribute bookkeeping and a class-level registry."""
import types

import torch
import torch.nn as nn
import torch.nn.functional as F


class Registry:
    history = []
    batch_sizes = []


torch.manual_seed(0)
model = nn.Linear(5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
tracker = types.SimpleNamespace(ce=0.0, l2=0.0)
stats = types.SimpleNamespace(ce=0.0, l2=0.0)
for step in range(4):
    x, y = torch.randn(4, 5), torch.randint(0, 3, (4,))
    logits = model(x)
    terms = {"ce": F.cross_entropy(logits, y), "l2": 1e-3 * logits.pow(2).mean()}
    loss = terms["ce"] + terms["l2"]
    opt.zero_grad()
    loss.backward()
    opt.step()
    for name, value in terms.items():
        setattr(tracker, name, getattr(tracker, name) + value)  # expect: TEN501
        setattr(stats, name, getattr(stats, name) + float(value))  # ok
    Registry.history.append(loss)  # expect: TEN501
    Registry.batch_sizes.append(x.shape[0])  # ok
print(float(tracker.ce), stats.l2, len(Registry.history), sum(Registry.batch_sizes))
