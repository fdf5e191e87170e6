"""Training driven by generators that yield per-step losses."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def batches(n, bs=8):
    for _ in range(n):
        x = torch.randn(bs, 3)
        yield x, (x @ torch.tensor([1.0, -2.0, 0.5])).unsqueeze(1)


def train_steps(model, opt, n):
    cumulative = 0.0
    for x, y in batches(n):
        loss = nn.functional.smooth_l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        cumulative = cumulative + loss  # expect: TEN501
        yield loss, cumulative


def train_steps_clean(model, opt, n):
    cumulative = 0.0
    for x, y in batches(n):
        loss = nn.functional.smooth_l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        cumulative += loss.item()  # ok
        yield loss, cumulative


model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
total = 0
for step, (loss, cum) in enumerate(train_steps(model, opt, 8)):
    total = total + loss  # expect: TEN501
print("gen1", round(total.item(), 4), round(cum.item(), 4))

model2 = nn.Linear(3, 1)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05)
total2 = 0.0
for step, (loss, cum) in enumerate(train_steps_clean(model2, opt2, 8)):
    total2 += loss.detach()  # ok
print("gen2", round(total2.item(), 4), round(cum, 4))
