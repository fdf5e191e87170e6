"""A wandb/tensorboard-like run object and a progress bar stand-in."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Run:
    def __init__(self, name):
        self.name = name
        self.history = []
        self.summary = {}

    def log(self, data, step=None):
        row = dict(data)
        row["_step"] = step if step is not None else len(self.history)
        self.history.append(row)
        self.summary.update(data)


class SummaryWriter:
    def __init__(self):
        self.scalars = {}

    def add_scalar(self, tag, value, global_step):
        if hasattr(value, "item"):
            value = value.item()
        self.scalars.setdefault(tag, []).append((global_step, value))


class ProgressBar:
    def __init__(self, total):
        self.total = total
        self.postfix = {}

    def set_postfix(self, **kwargs):
        self.postfix = kwargs


model = nn.Sequential(nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
run, run2 = Run("baseline"), Run("sweep-1")
writer = SummaryWriter()
bar = ProgressBar(10)
for step in range(10):
    x, y = torch.randn(8, 5), torch.randint(0, 2, (8,))
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    run.log({"loss": loss, "lr": opt.param_groups[0]["lr"]}, step=step)  # expect: TEN501
    run2.log({"loss": loss.item(), "max_logit": logits.max().item()}, step=step)  # ok
    writer.add_scalar("train/loss", loss, step)  # ok
    bar.set_postfix(loss=loss)  # either

print(len(run.history), run2.summary, writer.scalars["train/loss"][-1])
