"""A SummaryWriter-like logger and a Lightning-like module that collects step outputs."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ScalarWriter:
    def __init__(self):
        self.scalars = defaultdict(list)

    def add_scalar(self, tag, value, global_step):
        self.scalars[tag].append((global_step, value))

    def add_histogram(self, tag, values, global_step):
        self.scalars[tag + "/mean"].append((global_step, values.mean()))


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(9, 18), nn.ReLU(), nn.Linear(18, 3))
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.training_step_outputs.append({"loss": loss, "n": len(y)})  # expect: TEN501
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        with torch.no_grad():
            loss = F.cross_entropy(self.net(x), y)
        self.validation_step_outputs.append(loss)  # ok
        return loss

    def on_train_epoch_end(self):
        avg = torch.stack([o["loss"] for o in self.training_step_outputs]).mean()
        self.training_step_outputs.clear()
        return avg

    def on_validation_epoch_end(self):
        avg = torch.stack(self.validation_step_outputs).mean()
        self.validation_step_outputs.clear()
        return avg


writer = ScalarWriter()
lit = LitClassifier()
opt = torch.optim.Adam(lit.parameters(), lr=1e-2)
train = [(torch.randn(8, 9), torch.randint(0, 3, (8,))) for _ in range(6)]
val = [(torch.randn(8, 9), torch.randint(0, 3, (8,))) for _ in range(2)]
global_step = 0
epoch_avgs = []
for epoch in range(3):
    for i, batch in enumerate(train):
        loss = lit.training_step(batch, i)
        opt.zero_grad()
        loss.backward()
        opt.step()
        writer.add_scalar("train/loss", loss, global_step)  # expect: TEN501
        writer.add_scalar("train/loss_item", loss.item(), global_step)  # ok
        writer.add_scalar("train/lr", opt.param_groups[0]["lr"], global_step)  # ok
        writer.add_histogram("weights/fc1", lit.net[0].weight, global_step)  # either
        writer.add_histogram("weights/fc1_detached", lit.net[0].weight.detach(), global_step)  # ok
        global_step += 1
    for i, batch in enumerate(val):
        lit.validation_step(batch, i)
    epoch_avgs.append(lit.on_train_epoch_end())  # expect: TEN501
    val_avg = lit.on_validation_epoch_end()
    writer.add_scalar("val/loss", val_avg, global_step)  # ok

print({k: len(v) for k, v in writer.scalars.items()})
print("epoch avgs", [round(float(a), 4) for a in epoch_avgs], round(float(writer.scalars["val/loss"][-1][1]), 4))
