"""Training loop whose bookkeeping is split across small helper functions."""
from collections import defaultdict
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class StepOutput:
    loss: torch.Tensor
    logits: torch.Tensor
    targets: torch.Tensor
    n: int


class RunState:
    def __init__(self):
        self._weighted_losses = []
        self.n_seen = 0

    def record(self, value):
        self._weighted_losses.append(value)

    def mean_loss(self):
        return (sum(self._weighted_losses) / self.n_seen).item()


class ScalarWriter:
    """Minimal stand-in for a TensorBoard writer."""

    def __init__(self):
        self.scalars = defaultdict(list)

    def add_scalar(self, tag, value, step):
        self.scalars[tag].append((step, value))


def _weighted(out):
    return out.loss * out.n


def bookkeeping(out, state):
    state.record(_weighted(out))
    state.n_seen += out.n


def summarize(out, writer, step):
    writer.add_scalar("train/loss", out.loss.item(), step)
    acc = (out.logits.argmax(1) == out.targets).float().mean()
    writer.add_scalar("train/acc", acc.item(), step)


def train_step(model, batch, optimizer):
    inputs, targets = batch
    logits = model(inputs)
    loss = F.cross_entropy(logits, targets, label_smoothing=0.1)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return StepOutput(loss=loss, logits=logits, targets=targets, n=inputs.shape[0])


def get_batches(n_batches, bs=24):
    for _ in range(n_batches):
        x = torch.randn(bs, 9)
        yield x, (x.abs().argmax(1) % 3)


def main():
    model = nn.Sequential(nn.Linear(9, 27), nn.ReLU(), nn.Linear(27, 3))
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-3)
    state, writer = RunState(), ScalarWriter()
    for step, batch in enumerate(get_batches(14)):
        out = train_step(model, batch, optimizer)
        bookkeeping(out, state)  # expect: TEN501
        summarize(out, writer, step)  # ok
    print(f"mean loss {state.mean_loss():.4f}; logged {len(writer.scalars['train/loss'])} points")


if __name__ == "__main__":
    main()
