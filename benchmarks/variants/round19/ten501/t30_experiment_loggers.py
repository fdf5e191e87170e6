"""wandb-like and tensorboard-like logging stubs (no network, all in memory)."""
import collections
import torch
import torch.nn as nn
import torch.nn.functional as F


class Run:
    """Minimal stand-in for a wandb run: keeps every logged row in memory."""

    def __init__(self, project):
        self.project = project
        self.rows = []
        self.summary = {}

    def log(self, data=None, step=None, **kwargs):
        row = dict(data or {}, **kwargs)
        row["_step"] = step
        self.rows.append(row)
        self.summary.update(row)


class SummaryWriter:
    """Minimal stand-in for torch.utils.tensorboard.SummaryWriter."""

    def __init__(self):
        self.scalars = collections.defaultdict(list)
        self.histograms = collections.defaultdict(list)

    def add_scalar(self, tag, value, global_step=None):
        self.scalars[tag].append((global_step, value))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None):
        for k, v in tag_scalar_dict.items():
            self.add_scalar(f"{main_tag}/{k}", v, global_step)

    def add_histogram(self, tag, values, global_step=None):
        self.histograms[tag].append((global_step, values))


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    run_bad, run_ok = Run("demo"), Run("demo")
    w_bad, w_ok = SummaryWriter(), SummaryWriter()
    for step in range(5):
        x, y = torch.randn(8, 6), torch.randint(0, 2, (8,))
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(1) == y).float().mean()
        reg = sum(p.pow(2).sum() for p in model.parameters())
        opt.zero_grad()
        (loss + 1e-4 * reg).backward()
        opt.step()
        run_bad.log(loss=loss, acc=acc, step=step)  # expect: TEN501
        run_ok.log({"loss": loss.item(), "acc": acc}, step=step)  # ok
        run_bad.log(**{"reg": reg, "lr": 1e-3})  # expect: TEN501
        run_ok.log(**{k: v.item() for k, v in {"reg": reg, "loss": loss}.items()})  # ok
        w_bad.add_scalar("train/loss", loss, step)  # expect: TEN501
        w_ok.add_scalar("train/loss", loss.item(), step)  # ok
        w_bad.add_scalars("aux", {"reg": reg, "acc": acc}, step)  # expect: TEN501
        w_ok.add_histogram("fc0.weight", model[0].weight, step)  # ok
        w_ok.add_histogram("logits", logits.detach().cpu().numpy(), step)  # ok
    print(len(run_bad.rows), run_ok.summary["loss"], float(run_bad.summary["reg"]), len(w_bad.scalars["train/loss"]),
          w_ok.scalars["train/loss"][-1], len(w_ok.histograms["logits"]))


if __name__ == "__main__":
    main()
