"""Stats object filled via setattr/getattr and a flat list grown with .extend()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Stats:
    pass


class DetectorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 16)
        self.cls = nn.Linear(16, 3)
        self.box = nn.Linear(16, 4)

    def forward(self, x):
        h = F.relu(self.body(x))
        return self.cls(h), self.box(h)


def compute_losses(model, x, y, boxes):
    cls_out, box_out = model(x)
    return {"cls": F.cross_entropy(cls_out, y), "box": F.l1_loss(box_out, boxes)}


model = DetectorHead()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
stats, stats_ok = Stats(), Stats()
for name in ("cls", "box"):
    setattr(stats, name, 0.0)
    setattr(stats_ok, name, 0.0)
all_terms, all_terms_ok = [], []
for step in range(5):
    x, y, boxes = torch.randn(6, 8), torch.randint(0, 3, (6,)), torch.rand(6, 4)
    losses = compute_losses(model, x, y, boxes)
    total = sum(losses.values())
    opt.zero_grad()
    total.backward()
    opt.step()
    for name, value in losses.items():
        setattr(stats, name, getattr(stats, name) + value)  # expect: TEN501
        setattr(stats_ok, name, getattr(stats_ok, name) + float(value))  # ok
    all_terms.extend(losses.values())  # expect: TEN501
    all_terms_ok.extend(v.item() for v in losses.values())  # ok
print(float(stats.cls), stats_ok.box, len(all_terms), sum(all_terms_ok))
