"""Experiment loggers: an in-memory SummaryWriter stand-in, a wandb-like run, a CSV logger."""
import io
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MemoryWriter:
    """Drop-in for torch.utils.tensorboard.SummaryWriter used in unit tests: keeps raw values."""

    def __init__(self):
        self.scalars = defaultdict(list)
        self.histograms = defaultdict(list)

    def add_scalar(self, tag, scalar_value, global_step=None):
        self.scalars[tag].append((global_step, scalar_value))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None):
        for k, v in tag_scalar_dict.items():
            self.scalars[f"{main_tag}/{k}"].append((global_step, v))

    def add_histogram(self, tag, values, global_step=None):
        self.histograms[tag].append((global_step, values))


class FloatWriter(MemoryWriter):
    """Writer that converts everything it receives to Python floats before storing."""

    def add_scalar(self, tag, scalar_value, global_step=None):
        self.scalars[tag].append((global_step, float(scalar_value)))  # ok


class Run:
    """wandb.Run look-alike: `log` merges a dict into the run history."""

    def __init__(self):
        self.history = []
        self.summary = {}

    def log(self, data, step=None):
        row = dict(data)
        row["_step"] = step
        self.history.append(row)
        self.summary.update(data)


class CSVLogger:
    def __init__(self):
        self.buf = io.StringIO()
        self.rows = 0

    def write(self, **row):
        self.buf.write(",".join(f"{k}={v:.5f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()) + "\n")
        self.rows += 1


x = torch.randn(240, 9)
y = torch.randint(0, 4, (240,))
model = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
writer, fwriter, run, csv = MemoryWriter(), FloatWriter(), Run(), CSVLogger()

global_step = 0
for epoch in range(3):
    for i in range(0, 240, 30):
        logits = model(x[i:i + 30])
        loss = F.cross_entropy(logits, y[i:i + 30])
        reg = 1e-4 * model[0].weight.pow(2).sum()
        opt.zero_grad()
        (loss + reg).backward()
        opt.step()
        acc = (logits.argmax(1) == y[i:i + 30]).float().mean()

        writer.add_scalar("train/loss", loss, global_step)  # expect: TEN501
        writer.add_scalar("train/acc", acc.item(), global_step)  # ok
        writer.add_scalars("losses", {"ce": loss.item(), "reg": reg}, global_step)  # expect: TEN501
        writer.add_histogram("logits", logits.detach(), global_step)  # ok
        fwriter.add_scalar("train/loss", loss.detach(), global_step)  # ok
        fwriter.add_scalar("train/reg", reg, global_step)
        run.log({"loss": loss, "acc": acc}, step=global_step)  # expect: TEN501
        run.log({"loss_scalar": loss.item(), "epoch": epoch}, step=global_step)  # ok
        csv.write(step=global_step, loss=loss.item(), lr=opt.param_groups[0]["lr"])
        global_step += 1

print("scalars:", {k: len(v) for k, v in writer.scalars.items()})
print("last loss:", float(writer.scalars["train/loss"][-1][1]), "reg last:", float(writer.scalars["losses/reg"][-1][1]))
print("run summary loss:", float(run.summary["loss"]), "rows:", len(run.history), "csv rows:", csv.rows)
print("hist mean:", torch.stack([v.mean() for _, v in writer.histograms["logits"]]).mean().item(),
      "float writer mean:", sum(v for _, v in fwriter.scalars["train/loss"]) / len(fwriter.scalars["train/loss"]))
