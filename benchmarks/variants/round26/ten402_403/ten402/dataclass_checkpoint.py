from dataclasses import dataclass, field
from typing import Dict, Optional

import torch
import torch.nn as nn

torch.manual_seed(0)


@dataclass
class Checkpoint:
    epoch: int
    val_loss: float
    weights: Dict[str, torch.Tensor] = field(repr=False)


@dataclass
class History:
    best: Optional[Checkpoint] = None
    last: Optional[Checkpoint] = None


model = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.08)
Xtr, Xva = torch.randn(30, 10), torch.randn(100, 10)
true_w = torch.randn(10)
Ytr = (Xtr @ true_w + torch.randn(30)).unsqueeze(1)
Yva = (Xva @ true_w).unsqueeze(1)
hist = History()

for epoch in range(30):
    opt.zero_grad()
    nn.functional.mse_loss(model(Xtr), Ytr).backward()
    opt.step()
    with torch.no_grad():
        vl = nn.functional.mse_loss(model(Xva), Yva).item()
    if hist.best is None or vl < hist.best.val_loss:
        hist.best = Checkpoint(epoch, vl, dict(model.state_dict()))  # expect: TEN402
    hist.last = Checkpoint(epoch, vl, {k: v.detach().clone() for k, v in model.state_dict().items()})  # ok

print(hist.best)
print(hist.last)
for tag in ("best", "last"):
    ck = getattr(hist, tag)
    model.load_state_dict(ck.weights)
    with torch.no_grad():
        print(f"{tag}: reloaded val {nn.functional.mse_loss(model(Xva), Yva).item():.6f} (recorded {ck.val_loss:.6f})")
