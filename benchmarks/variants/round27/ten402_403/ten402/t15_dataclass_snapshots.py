from dataclasses import dataclass, field
from typing import Dict, List
import torch
import torch.nn as nn

torch.manual_seed(0)


@dataclass
class Snapshot:
    step: int
    loss: float
    weights: Dict[str, torch.Tensor]


@dataclass
class History:
    items: List[Snapshot] = field(default_factory=list)

    def record(self, step, loss, model):
        self.items.append(Snapshot(step, loss, model.state_dict()))  # expect: TEN402

    def record_safe(self, step, loss, model):
        w = {k: t.clone() for k, t in model.state_dict().items()}
        self.items.append(Snapshot(step, loss, w))  # ok


model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
X = torch.randn(40, 4)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5], [0.0]])
hist, hist_safe = History(), History()
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        hist.record(step, loss.item(), model)
        hist_safe.record_safe(step, loss.item(), model)

for h in (hist, hist_safe):
    first, last = h.items[0], h.items[-1]
    move = (last.weights["weight"] - first.weights["weight"]).norm().item()
    print(f"steps {first.step}->{last.step} loss {first.loss:.4f}->{last.loss:.4f} weight move {move:.5f}")
