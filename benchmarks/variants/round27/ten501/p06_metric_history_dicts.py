"""Training loop keeping metric histories in dicts (defaultdict(list), dict.update)."""
from collections import defaultdict
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
history = defaultdict(list)
totals = {}
totals_ok = {}

for it in range(10):
    x = torch.randn(20, 5)
    y = torch.randint(0, 4, (20,))
    logits = net(x)
    ce = F.cross_entropy(logits, y)
    l2 = sum((p ** 2).sum() for p in net.parameters()) * 1e-4
    loss = ce + l2
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == y).float().mean()
    history["loss"].append(loss)  # expect: TEN501
    history["acc"].append(acc.item())  # ok
    history["l2"].append(l2.detach().cpu())  # ok
    history.setdefault("logit_std", []).append(logits.std())  # expect: TEN501
    totals.update(ce=totals.get("ce", 0.0) + ce, l2=totals.get("l2", 0.0) + l2)  # expect: TEN501
    totals_ok.update(ce=totals_ok.get("ce", 0.0) + ce.item())  # ok

print({k: round(float(v[-1]), 4) for k, v in history.items()})
print("ce sum", round(totals["ce"].item(), 4), round(totals_ok["ce"], 4))
