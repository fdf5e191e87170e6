"""Stats objects filled via setattr / dict.update / list.extend / list.insert."""
import types

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
rec = types.SimpleNamespace(total=0.0, steps=0)
rec_f = types.SimpleNamespace(total=0.0, steps=0)
by_step = {}
latest = {}
terms, terms_f = [], []
newest_first = []
for step in range(9):
    x = torch.randn(16, 6)
    y = (x.sum(1) > 0).long()
    out = net(x)
    ce = F.cross_entropy(out, y)
    ent = -(out.softmax(-1) * out.log_softmax(-1)).sum(-1).mean()
    loss = ce - 0.01 * ent
    opt.zero_grad()
    loss.backward()
    opt.step()
    setattr(rec, "total", rec.total + loss)  # expect: TEN501
    setattr(rec_f, "total", rec_f.total + loss.item())  # ok
    by_step.update({f"step{step}/loss": loss})  # expect: TEN501
    latest.update(loss=loss.item(), ent=ent.item())  # ok
    terms.extend([ce, ent])  # expect: TEN501
    terms_f.extend([ce.item(), ent.item()])  # ok
    newest_first.insert(0, loss)  # expect: TEN501
print(round(float(rec.total) / 9, 4), round(rec_f.total / 9, 4), len(by_step), latest, len(terms), round(sum(terms_f), 3), len(newest_first))
