"""Step outputs packed into dataclass / NamedTuple records and kept in a history."""
from dataclasses import dataclass, field
from typing import List, NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class StepOutput:
    step: int
    loss: torch.Tensor
    logits: torch.Tensor


class ScalarRecord(NamedTuple):
    step: int
    loss: float
    acc: float


class TensorRecord(NamedTuple):
    step: int
    loss: torch.Tensor


@dataclass
class RunLog:
    name: str
    steps: List[StepOutput] = field(default_factory=list)
    scalars: List[ScalarRecord] = field(default_factory=list)
    extra: List[TensorRecord] = field(default_factory=list)


def train_step(model, opt, x, y, step):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return StepOutput(step=step, loss=loss, logits=logits)


model = nn.Linear(7, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
log = RunLog("baseline")
detached = []
for step in range(12):
    x, y = torch.randn(10, 7), torch.randint(0, 3, (10,))
    out = train_step(model, opt, x, y, step)
    log.steps.append(out)  # expect: TEN501
    log.scalars.append(ScalarRecord(step, out.loss.item(), (out.logits.argmax(1) == y).float().mean().item()))  # ok
    log.extra.append(TensorRecord(step, out.loss))  # expect: TEN501
    detached.append(StepOutput(out.step, out.loss.detach(), out.logits.detach()))  # ok

print(log.name, len(log.steps), round(float(log.steps[-1].loss), 4), round(log.scalars[-1].loss, 4))
print("acc", round(sum(r.acc for r in log.scalars) / len(log.scalars), 4), "extra", round(float(log.extra[0].loss), 4))
print("detached", round(float(torch.stack([d.loss for d in detached]).mean()), 4))
