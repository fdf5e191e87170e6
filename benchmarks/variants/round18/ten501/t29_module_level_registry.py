"""Module-level registries and class-level shared lists used as global metric stores."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

LOSS_REGISTRY = {}
_GLOBAL_STEP_OUTPUTS = []


def register(name, value):
    LOSS_REGISTRY.setdefault(name, []).append(value)


class Stats:
    history = []
    scalars = []

    @classmethod
    def record(cls, value):
        cls.history.append(value)

    @classmethod
    def record_scalar(cls, value):
        cls.scalars.append(value)


def train_one(model, opt, x, y):
    global _GLOBAL_STEP_OUTPUTS
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    _GLOBAL_STEP_OUTPUTS.append(logits)  # expect: TEN501
    return loss


model = nn.Linear(6, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    x, y = torch.randn(8, 6), torch.randint(0, 2, (8,))
    loss = train_one(model, opt, x, y)
    register("train", loss)  # expect: TEN501
    register("train_value", loss.item())  # ok
    register("lr", opt.param_groups[0]["lr"])  # ok
    Stats.record(loss)  # expect: TEN501
    Stats.record_scalar(loss.item())  # ok

print("registry keys:", sorted(LOSS_REGISTRY), "scalars:", [round(v, 4) for v in Stats.scalars])
