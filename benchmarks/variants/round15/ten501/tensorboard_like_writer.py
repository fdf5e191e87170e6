"""A SummaryWriter stand-in that keeps everything in memory (for unit tests / notebooks)."""
from collections import defaultdict

import torch
import torch.nn as nn


class InMemoryWriter:
    def __init__(self):
        self.scalars = defaultdict(list)
        self.histograms = defaultdict(list)
        self.texts = []

    def add_scalar(self, tag, scalar_value, global_step=None):
        self.scalars[tag].append((global_step, scalar_value))

    def add_histogram(self, tag, values, global_step=None):
        self.histograms[tag].append((global_step, values.detach().cpu().numpy()))

    def add_text(self, tag, text, global_step=None):
        self.texts.append((tag, text, global_step))


def train(model, writer, steps=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        x = torch.randn(10, 4)
        y = (x[:, 0] > 0).long()
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (logits.argmax(1) == y).float().mean()
        writer.add_scalar("train/loss", loss, step)  # expect: TEN501
        writer.add_scalar("train/acc", acc.item(), step)  # ok
        writer.add_scalar("train/lr", opt.param_groups[0]["lr"], step)  # ok
        writer.add_histogram("fc/weight", model.weight, step)  # ok
        writer.add_histogram("fc/logits", logits, step)  # ok
        writer.add_text("note", f"loss={loss.item():.3f}", step)  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    w = InMemoryWriter()
    train(nn.Linear(4, 2), w)
    print({k: len(v) for k, v in w.scalars.items()}, len(w.histograms["fc/weight"]))
