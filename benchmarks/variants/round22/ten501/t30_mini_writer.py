"""A SummaryWriter stand-in that buffers everything it is handed."""
from collections import defaultdict

import torch
from torch import nn


class MiniWriter:
    def __init__(self):
        self.scalars = defaultdict(list)
        self.hists = defaultdict(list)

    def add_scalar(self, tag, value, step):
        self.scalars[tag].append((step, value))  # expect: TEN501

    def add_scalars(self, main_tag, values, step):
        for k, v in values.items():
            self.scalars[f"{main_tag}/{k}"].append((step, v))  # expect: TEN501

    def add_histogram(self, tag, values, step):
        self.hists[tag].append((step, values.detach().cpu().clone()))  # ok

    def flush(self):
        return {k: len(v) for k, v in self.scalars.items()}


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ELU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
writer, lr_writer, hist_writer = MiniWriter(), MiniWriter(), MiniWriter()

for step in range(6):
    x = torch.randn(10, 4)
    out = model(x)
    mse = out.pow(2).mean()
    l2 = sum(p.pow(2).sum() for p in model.parameters()) * 1e-3
    loss = mse + l2
    opt.zero_grad()
    loss.backward()
    opt.step()
    writer.add_scalar("train/loss", loss, step)  # either: TEN501
    writer.add_scalars("terms", {"mse": mse, "l2": l2}, step)  # either: TEN501
    lr_writer.add_scalar("lr", opt.param_groups[0]["lr"], step)  # ok
    hist_writer.add_histogram("out", out, step)  # ok
    hist_writer.add_histogram("w0", model[0].weight, step)  # ok

print(writer.flush(), lr_writer.flush(), {k: len(v) for k, v in hist_writer.hists.items()})
