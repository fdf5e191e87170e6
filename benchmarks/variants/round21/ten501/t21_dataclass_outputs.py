"""Step outputs as dataclasses / NamedTuples, collected by the caller."""
import dataclasses
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class StepOutput:
    loss: torch.Tensor
    logits: torch.Tensor
    grad_norm: float

    def detached(self) -> "StepOutput":
        return dataclasses.replace(self, loss=self.loss.detach(), logits=self.logits.detach())


class EvalResult(NamedTuple):
    loss: float
    accuracy: float


class StepRecord(NamedTuple):
    step: int
    loss: float
    margin: torch.Tensor


@dataclass
class TrainState:
    step: int = 0
    losses: List[torch.Tensor] = field(default_factory=list)
    best_loss: Optional[float] = None
    last_output: Optional[StepOutput] = None


def train_step(model, opt, x, y) -> StepOutput:
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    grad_norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0))
    opt.step()
    return StepOutput(loss=loss, logits=logits, grad_norm=grad_norm)


@torch.no_grad()
def evaluate(model, x, y) -> EvalResult:
    logits = model(x)
    return EvalResult(F.cross_entropy(logits, y).item(), (logits.argmax(1) == y).float().mean().item())


x = torch.randn(300, 6)
y = (x[:, 0] * x[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
state = TrainState()
outputs, summaries, records, evals = [], [], [], []

for epoch in range(3):
    for i in range(0, 240, 40):
        xb, yb = x[i:i + 40], y[i:i + 40]
        out = train_step(model, opt, xb, yb)
        state.step += 1
        outputs.append(out)  # expect: TEN501
        summaries.append(out.detached())  # ok
        state.losses.append(out.loss)  # expect: TEN501
        state.last_output = out  # either
        top2 = out.logits.topk(2, dim=1).values
        records.append(StepRecord(state.step, out.loss.item(), (top2[:, 0] - top2[:, 1]).mean()))  # expect: TEN501
        if state.best_loss is None or out.loss.item() < state.best_loss:
            state.best_loss = out.loss.item()  # ok
    evals.append(evaluate(model, x[240:], y[240:]))  # ok

print("eval:", [(round(e.loss, 4), round(e.accuracy, 3)) for e in evals])
print("mean train loss:", torch.stack([o.loss for o in outputs]).mean().item(),
      "(detached):", torch.stack([s.loss for s in summaries]).mean().item())
print("best:", state.best_loss, "mean margin:", torch.stack([r.margin for r in records]).mean().item(),
      "grad norm:", sum(o.grad_norm for o in outputs) / len(outputs), len(state.losses))
