"""Training step returning a dataclass of outputs; the loop keeps some of them."""
from dataclasses import dataclass, field, replace

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class StepOutput:
    loss: torch.Tensor
    logits: torch.Tensor
    extras: dict = field(default_factory=dict)

    def detached(self):
        return replace(self, loss=self.loss.detach(), logits=self.logits.detach(),
                       extras={k: v.detach() for k, v in self.extras.items()})


@dataclass
class TrainState:
    step: int = 0
    best_loss: float = float("inf")
    outputs: list = field(default_factory=list)


def training_step(model, batch):
    x, y = batch
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    return StepOutput(loss=loss, logits=logits, extras={"margin": (logits.max(1).values - logits.mean(1)).mean()})


model = nn.Linear(5, 4)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
batches = [(torch.randn(7, 5), torch.randint(0, 4, (7,))) for _ in range(4)]

state = TrainState()
outputs_log = []
outputs_log_clean = []
metrics = []
epoch_logits = []
for batch in batches:
    out = training_step(model, batch)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    outputs_log.append(out)  # expect: TEN501
    outputs_log_clean.append(out.detached())  # ok
    metrics.append({"loss": out.loss.item(), "margin": out.extras["margin"].item()})  # ok
    epoch_logits.append(out.logits)  # expect: TEN501
    state.outputs.append(out.extras)  # expect: TEN501
    state.step += 1  # ok
    state.best_loss = min(state.best_loss, out.loss.item())  # ok

print("steps:", state.step, "best:", round(state.best_loss, 4), "last:", metrics[-1])
