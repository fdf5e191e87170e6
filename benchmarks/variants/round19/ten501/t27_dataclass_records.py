"""Per-step records as dataclasses and namedtuples."""
from collections import namedtuple
from dataclasses import dataclass, field
from typing import List
import torch
import torch.nn as nn
import torch.nn.functional as F

ModelOutput = namedtuple("ModelOutput", ["logits", "loss"])


@dataclass
class StepRecord:
    step: int
    loss: object
    lr: float


@dataclass
class TrainState:
    epoch: int = 0
    losses: List = field(default_factory=list)
    loss_values: List[float] = field(default_factory=list)
    best: float = float("inf")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 2)

    def forward(self, x, y):
        logits = self.fc(x)
        return ModelOutput(logits, F.cross_entropy(logits, y))


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    state = TrainState()
    records, records_ok, outputs, outputs_ok = [], [], [], []
    for step in range(5):
        out = net(torch.randn(8, 5), torch.randint(0, 2, (8,)))
        opt.zero_grad()
        out.loss.backward()
        opt.step()
        lr = opt.param_groups[0]["lr"]
        records.append(StepRecord(step, out.loss, lr))  # expect: TEN501
        records_ok.append(StepRecord(step, out.loss.item(), lr))  # ok
        outputs.append(out)  # expect: TEN501
        outputs_ok.append(ModelOutput(out.logits.detach(), out.loss.item()))  # ok
        state.losses.append(out.loss)  # expect: TEN501
        state.loss_values.append(out.loss.item())  # ok
        state.best = min(state.best, out.loss.item())  # ok
    print(len(records), float(records[-1].loss), records_ok[-1].loss, len(outputs), outputs_ok[-1].loss, len(state.losses), state.best)


if __name__ == "__main__":
    main()
