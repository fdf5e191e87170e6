"""Checkpoint records in dataclasses, produced through a trainer accessor."""
from dataclasses import dataclass, field
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class Checkpoint:
    step: int
    weights: dict
    meta: dict = field(default_factory=dict)


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.step = 0

    def weights(self):
        return self.model.state_dict()  # either

    def frozen_weights(self):
        return copy.deepcopy(self.model.state_dict())

    def train_step(self, x, y):
        self.opt.zero_grad()
        ((self.model(x) - y) ** 2).mean().backward()
        self.opt.step()
        self.step += 1


tr = Trainer()
x, y = torch.randn(16, 3), torch.randn(16, 1)
history = []
for epoch in range(3):
    for _ in range(4):
        tr.train_step(x, y)
    history.append(Checkpoint(tr.step, tr.weights()))  # expect: TEN402
    history.append(Checkpoint(tr.step, tr.frozen_weights(), {"frozen": True}))  # ok

first_live = history[0].weights["2.weight"]
first_frozen = history[1].weights["2.weight"]
print("epoch-0 checkpoint differs from frozen copy by", (first_live - first_frozen).abs().sum().item())
