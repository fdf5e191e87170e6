"""Metric registries implemented with class attributes and classmethods."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class LossRegistry:
    records = []

    @classmethod
    def add(cls, value):
        cls.records.append(value)


class ScalarRegistry:
    records = []

    @classmethod
    def add(cls, value):
        cls.records.append(value.item() if torch.is_tensor(value) else value)


class Counter:
    total = 0.0


model = nn.Bilinear(3, 3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.02)
for step in range(8):
    a, b = torch.randn(10, 3), torch.randn(10, 3)
    out = model(a, b)
    loss = (out.squeeze(1) - (a * b).sum(1)).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    LossRegistry.add(loss)  # expect: TEN501
    ScalarRegistry.add(loss)  # ok
    Counter.total += loss  # expect: TEN501

print(len(LossRegistry.records), round(ScalarRegistry.records[-1], 4), round(Counter.total.item(), 4))
