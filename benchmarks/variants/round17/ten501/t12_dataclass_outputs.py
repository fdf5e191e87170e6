"""Step functions returning dataclass outputs that the caller collects."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class StepOutput:
    loss: object
    logits: object


@dataclass
class EpochSummary:
    mean_loss: float
    n_steps: int
    losses: List[float] = field(default_factory=list)


def train_step(model, opt, x, y):
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return StepOutput(loss=loss, logits=logits)


model = nn.Linear(7, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
epoch_outputs = []
light_outputs = []
summaries = []
for epoch in range(2):
    float_losses = []
    for step in range(5):
        x, y = torch.randn(6, 7), torch.randint(0, 3, (6,))
        res = train_step(model, opt, x, y)
        epoch_outputs.append(res)  # expect: TEN501
        light_outputs.append(StepOutput(loss=res.loss.item(), logits=res.logits.detach()))  # ok
        float_losses.append(res.loss.item())  # ok
    summaries.append(EpochSummary(sum(float_losses) / len(float_losses), len(float_losses), float_losses))  # ok

print(len(epoch_outputs), summaries[-1].mean_loss)
