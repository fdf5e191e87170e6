"""Functional-style training with a dataclass state threaded through steps."""
from dataclasses import dataclass, field, replace
from typing import List

import torch
import torch.nn as nn

torch.manual_seed(0)


@dataclass
class State:
    step: int = 0
    losses: List[torch.Tensor] = field(default_factory=list)
    best: float = float("inf")
    ema_loss: float = 0.0
    grad_norms: List[float] = field(default_factory=list)


def update(state, model, opt, x, y):
    loss = nn.functional.huber_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    state.losses.append(loss)  # expect: TEN501
    state.best = min(state.best, loss.item())  # ok
    state.grad_norms.append(sum(p.grad.pow(2).sum() for p in model.parameters()).sqrt().item())  # ok
    new_state = replace(state, step=state.step + 1, ema_loss=0.9 * state.ema_loss + 0.1 * loss)  # expect: TEN501
    return new_state


model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
state = State()
for _ in range(9):
    x = torch.randn(12, 3)
    state = update(state, model, opt, x, x.max(1, keepdim=True).values)
print(state.step, round(state.best, 4), round(float(state.ema_loss), 4), len(state.losses), round(state.grad_norms[-1], 4))
