"""Training state kept in dataclasses."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class StepRecord:
    step: int
    loss: object


@dataclass
class TrainState:
    steps: int = 0
    loss_sum: float = 0.0
    records: List[StepRecord] = field(default_factory=list)
    records_ok: List[StepRecord] = field(default_factory=list)


def train(model, opt, batches, state):
    for x, y in batches:
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        state.loss_sum += loss  # expect: TEN501
        state.steps += 1  # ok
        state.records.append(StepRecord(state.steps, loss))  # expect: TEN501
        state.records_ok.append(StepRecord(state.steps, loss.item()))  # ok
    return state


torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
batches = [(torch.randn(4, 3), torch.randint(0, 2, (4, 1)).float()) for _ in range(4)]
st = train(model, opt, batches, TrainState())
print(st.steps, float(st.loss_sum) / st.steps, len(st.records), st.records_ok[-1])
