"""A small wandb/tensorboard-like run logger that buffers rows in memory."""
import time

import torch
import torch.nn as nn

torch.manual_seed(0)


class RunLogger:
    def __init__(self, name):
        self.name = name
        self.rows = []
        self.summary = {}

    def log(self, metrics, step=None):
        row = dict(metrics)
        row["_step"] = step if step is not None else len(self.rows)
        self.rows.append(row)
        self.summary.update(metrics)

    def mean(self, key):
        vals = [float(r[key]) for r in self.rows if key in r]
        return sum(vals) / max(len(vals), 1)


def main():
    run = RunLogger("baseline")
    run_clean = RunLogger("baseline-clean")
    model = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t0 = time.perf_counter()
    for step in range(10):
        x = torch.randn(8, 2, 16)
        y = x.mean(dim=(1, 2)).unsqueeze(1)
        pred = model(x)
        loss = nn.functional.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.log({"train/loss": loss, "train/pred_std": pred.std()}, step=step)  # expect: TEN501
        run.log({"w_norm": model[3].weight.norm(), "pred_mean": pred.mean().item()}, step=step)  # expect: TEN501
        run_clean.log({"train/loss": loss.item(), "train/pred_std": pred.std().item(), "time": time.perf_counter() - t0}, step=step)  # ok
    print(run.name, round(run.mean("train/loss"), 5))
    print(run_clean.name, round(run_clean.mean("train/loss"), 5), len(run_clean.rows))


main()
