"""Experiment-tracker stand-ins (wandb-like Run, tensorboard-like SummaryWriter)."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Run:
    """Minimal wandb.Run look-alike: keeps every logged row in memory."""

    def __init__(self, project):
        self.project = project
        self._history = []
        self.summary = {}
        self._step = 0

    def log(self, data, step=None, commit=True):
        row = dict(data)
        row["_step"] = self._step if step is None else step
        self._history.append(row)
        self.summary.update(data)
        if commit:
            self._step += 1


class SummaryWriter:
    """Minimal torch.utils.tensorboard.SummaryWriter look-alike (in memory)."""

    def __init__(self, log_dir):
        self.log_dir = log_dir
        self.scalars = defaultdict(list)
        self.histograms = {}
        self.texts = []

    def add_scalar(self, tag, scalar_value, global_step=None):
        self.scalars[tag].append((global_step, scalar_value))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None):
        for tag, value in tag_scalar_dict.items():
            self.add_scalar(f"{main_tag}/{tag}", value, global_step)

    def add_histogram(self, tag, values, global_step=None):
        self.histograms[(tag, global_step)] = values.detach().cpu().numpy()

    def add_text(self, tag, text, global_step=None):
        self.texts.append((tag, text, global_step))


model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
batches = [(torch.randn(12, 6), torch.randn(12, 1)) for _ in range(2)]

run = Run("demo")
run_clean = Run("demo-clean")
writer = SummaryWriter("runs/exp1")
text_writer = SummaryWriter("runs/exp1-text")

step = 0
for epoch in range(2):
    for xb, yb in batches:
        out = model(xb)
        mse = F.mse_loss(out, yb)
        l1 = F.l1_loss(out, yb)
        loss = mse + 0.1 * l1
        opt.zero_grad()
        loss.backward()
        opt.step()

        run.log({"train/loss": loss, "epoch": epoch})  # expect: TEN501
        run_clean.log({"train/loss": loss.item(), "epoch": epoch}, step=step)  # ok
        writer.add_scalar("loss/raw", loss, step)  # expect: TEN501
        writer.add_scalar("loss/item", loss.item(), step)  # ok
        writer.add_scalar("lr", sched.get_last_lr()[0], global_step=step)  # ok
        writer.add_scalars("parts", {"mse": mse, "l1": l1.item()}, step)  # expect: TEN501
        writer.add_histogram("fc.weight", model.weight, step)  # ok
        text_writer.add_text("status", f"step {step}: loss={loss.item():.4f}", step)  # ok
        step += 1
    sched.step()

print("rows:", len(run._history), "scalar tags:", sorted(writer.scalars), "hist:", len(writer.histograms))
