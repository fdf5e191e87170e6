"""Multi-task model with uncertainty weighting; per-task loss histories."""
import collections
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(6, 16)
        self.heads = nn.ModuleDict({"cls": nn.Linear(16, 3), "reg": nn.Linear(16, 1)})
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return {k: head(h) for k, head in self.heads.items()}


class MultiTaskTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        self.loss_hist = collections.defaultdict(list)
        self.loss_vals = collections.defaultdict(list)
        self.weights_hist = []
        self.weighted = None

    def step(self, x, y_cls, y_reg):
        out = self.model(x)
        losses = {"cls": F.cross_entropy(out["cls"], y_cls), "reg": F.mse_loss(out["reg"], y_reg)}
        precisions = torch.exp(-self.model.log_vars)
        self.weighted = [p * l + lv for p, l, lv in zip(precisions, losses.values(), self.model.log_vars)]  # either
        total = sum(self.weighted)
        self.opt.zero_grad()
        total.backward()
        self.opt.step()
        for name, l in losses.items():
            self.loss_hist[name].append(l)  # expect: TEN501
            self.loss_vals[name].append(l.item())  # ok
        self.weights_hist.append(precisions)  # expect: TEN501
        self.weights_hist.append(torch.exp(-self.model.log_vars.detach()))  # ok
        return {k: v.detach() for k, v in losses.items()}


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    tr = MultiTaskTrainer(MultiTask())
    summaries = []
    for step in range(4):
        x = torch.randn(8, 6)
        summaries.append(tr.step(x, torch.randint(0, 3, (8,)), torch.randn(8, 1)))  # ok
    print(len(tr.loss_hist["cls"]), {k: sum(v) for k, v in tr.loss_vals.items()}, len(tr.weights_hist),
          float(summaries[-1]["reg"]), float(sum(tr.weighted)))


if __name__ == "__main__":
    main()
