"""An evaluator whose update() is decorated with no_grad, used in different ways."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Evaluator:
    def __init__(self):
        self.logits, self.targets = [], []

    @torch.no_grad()
    def update(self, logits, targets):
        # no_grad here does not strip the graph from an argument computed outside
        self.logits.append(logits)
        self.targets.append(targets)

    def update_detached(self, logits, targets):
        self.logits.append(logits.detach())
        self.targets.append(targets)

    def accuracy(self):
        return (torch.cat(self.logits).argmax(-1) == torch.cat(self.targets)).float().mean().item()


torch.manual_seed(0)
model = nn.Linear(5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ev, ev_ok, ev_ok2 = Evaluator(), Evaluator(), Evaluator()
for step in range(4):
    x, y = torch.randn(6, 5), torch.randint(0, 3, (6,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ev.update(logits, y)  # expect: TEN501
    ev_ok.update_detached(model(x), y)  # ok
    with torch.no_grad():
        ev_ok2.update(model(x), y)  # ok
print(ev.accuracy(), ev_ok.accuracy(), ev_ok2.accuracy())
