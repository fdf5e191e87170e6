"""Multi-term losses logged through defaultdicts, dict.get and deques."""
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(8, 16)
        self.reg = nn.Linear(16, 1)
        self.cls = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.reg(h), self.cls(h)


def criterion(outputs, targets):
    reg, cls = outputs
    return {
        "reg": F.smooth_l1_loss(reg, targets["value"]),
        "cls": F.cross_entropy(cls, targets["label"]),
    }


def train(epochs=2, steps=3):
    model = MultiTask()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    history = defaultdict(list)
    totals = {}
    recent = deque()
    recent_bounded = deque(maxlen=2)
    per_epoch = []
    for epoch in range(epochs):
        epoch_terms = {}
        for step in range(steps):
            x = torch.randn(4, 8)
            targets = {"value": torch.randn(4, 1), "label": torch.randint(0, 4, (4,))}
            loss_dict = criterion(model(x), targets)
            loss = sum(loss_dict.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
            for name, value in loss_dict.items():
                history[name].append(value)  # expect: TEN501
                totals[name] = totals.get(name, 0.0) + value  # expect: TEN501
            epoch_terms = {k: epoch_terms.get(k, 0.0) + v.item() for k, v in loss_dict.items()}  # ok
            recent.appendleft(loss)  # expect: TEN501
            recent_bounded.append(loss)  # either
        per_epoch.append({k: v / steps for k, v in epoch_terms.items()})  # ok
    return history, totals, recent


def train_logged_strings(steps=4):
    model = MultiTask()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    lines = []
    for step in range(steps):
        x = torch.randn(4, 8)
        targets = {"value": torch.randn(4, 1), "label": torch.randint(0, 4, (4,))}
        losses = criterion(model(x), targets)
        total = losses["reg"] + 0.5 * losses["cls"]
        opt.zero_grad()
        total.backward()
        opt.step()
        lines.append(f"step {step}: total={total:.4f} reg={losses['reg']:.4f}")  # ok
        lines.append("cls=" + str(losses["cls"].item()))  # ok
    return lines


if __name__ == "__main__":
    torch.manual_seed(0)
    h, t, r = train()
    print("history:", h["reg"][0].grad_fn, "totals:", t["cls"].grad_fn, "recent:", r[0].grad_fn)
    print(train_logged_strings()[0])
