"""Mean-teacher style EMA of student weights (out-of-place EMA update)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402

    @torch.no_grad()
    def update(self, model):
        cur = model.state_dict()
        self.shadow = {k: self.decay * self.shadow[k] + (1 - self.decay) * cur[k] for k in cur}

    def copy_to(self, model):
        model.load_state_dict(self.shadow)


class EMASafe(EMA):
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


torch.manual_seed(0)
student = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 4))
teacher = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 4))
x = torch.randn(64, 6)
y = torch.randint(0, 4, (64,))
opt = torch.optim.SGD(student.parameters(), lr=0.5)
ema = EMA(student)
opt.zero_grad()
F.cross_entropy(student(x), y).backward()
opt.step()
ema_safe = EMASafe(student)
for step in range(8):
    opt.zero_grad()
    F.cross_entropy(student(x), y).backward()
    opt.step()
    ema.update(student)
    ema_safe.update(student)
for name, e in (("ema", ema), ("ema_safe", ema_safe)):
    e.copy_to(teacher)
    with torch.no_grad():
        print(name, round(F.cross_entropy(teacher(x), y).item(), 6), round(teacher[0].weight.sum().item(), 6))
