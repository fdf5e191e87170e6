"""Script-style training that logs into module-level globals from helper functions."""
import torch
from torch import nn

ALL_LOSSES = []
TOTAL = 0
TOTAL_F = 0.0
METRICS = {"loss": [], "acc": [], "margin": []}
STEP = 0

torch.manual_seed(0)
model = nn.Bilinear(4, 4, 3)
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)


def train_one(a, b, y):
    global TOTAL, TOTAL_F, STEP
    logits = model(a, b)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ALL_LOSSES.append(loss)  # expect: TEN501
    TOTAL += loss  # expect: TEN501
    TOTAL_F += loss.item()  # ok
    STEP += 1  # ok
    METRICS["loss"].append(loss.detach())  # ok
    top2 = logits.topk(2, dim=1).values
    METRICS["margin"].append(top2[:, 0] - top2[:, 1])  # expect: TEN501
    return logits


def log_accuracy(logits, y):
    METRICS["acc"].append((logits.argmax(1) == y).float().mean())  # ok


for _ in range(7):
    a, b = torch.randn(9, 4), torch.randn(9, 4)
    y = torch.randint(0, 3, (9,))
    out = train_one(a, b, y)
    log_accuracy(out, y)

print(STEP, len(ALL_LOSSES), round(TOTAL_F / STEP, 4), float(TOTAL.detach()) / STEP, len(METRICS["acc"]))
