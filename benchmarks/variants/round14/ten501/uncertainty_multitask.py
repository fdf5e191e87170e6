"""Multi-task regression + classification with homoscedastic-uncertainty loss weights."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, d=9):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(d, 32), nn.ReLU())
        self.reg_head = nn.Linear(32, 1)
        self.cls_head = nn.Linear(32, 4)

    def forward(self, x):
        h = self.shared(x)
        return self.reg_head(h).squeeze(-1), self.cls_head(h)


class UncertaintyWeighting(nn.Module):
    def __init__(self, tasks):
        super().__init__()
        self.tasks = list(tasks)
        self.log_vars = nn.Parameter(torch.zeros(len(self.tasks)))
        self.weight_trace = []
        self.weight_trace_np = []

    def forward(self, task_losses):
        precision = torch.exp(-self.log_vars)
        total = sum(precision[i] * task_losses[t] + self.log_vars[i] for i, t in enumerate(self.tasks))
        self.weight_trace.append(torch.exp(-self.log_vars))  # expect: TEN501
        self.weight_trace_np.append(torch.exp(-self.log_vars).detach().cpu().numpy())  # ok
        return total, precision


def main(epochs=3, bs=32):
    torch.manual_seed(0)
    x = torch.randn(160, 9)
    y_reg = x[:, 0] * 2 + 0.3 * torch.randn(160)
    y_cls = (x[:, 1:5]).argmax(-1)
    net = MultiTaskNet()
    weighting = UncertaintyWeighting(["reg", "cls"])
    opt = torch.optim.Adam(list(net.parameters()) + list(weighting.parameters()), lr=1e-2)
    weighted_hist = defaultdict(list)
    for epoch in range(epochs):
        task_totals = {"reg": 0.0, "cls": 0.0}
        for i in range(0, 160, bs):
            pred_reg, pred_cls = net(x[i:i + bs])
            losses = {"reg": F.mse_loss(pred_reg, y_reg[i:i + bs]),
                      "cls": F.cross_entropy(pred_cls, y_cls[i:i + bs])}
            total, precision = weighting(losses)
            opt.zero_grad()
            total.backward()
            opt.step()
            for k, (name, l) in enumerate(losses.items()):
                task_totals[name] += l.item()  # ok
                weighted_hist[name].append(precision[k] * l)  # expect: TEN501
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v / 5:.4f}" for k, v in task_totals.items())
              + f" weights={weighting.weight_trace_np[-1].round(3)}")


if __name__ == "__main__":
    main()
