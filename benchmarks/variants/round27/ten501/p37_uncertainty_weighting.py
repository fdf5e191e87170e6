"""Kendall-style homoscedastic uncertainty weighting; logging the learned weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class UncertaintyLoss(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n))

    def forward(self, losses):
        precision = torch.exp(-self.log_vars)
        return (precision * losses + self.log_vars).sum(), precision


net = nn.Linear(4, 2)
crit = UncertaintyLoss(2)
opt = torch.optim.Adam(list(net.parameters()) + list(crit.parameters()), lr=2e-2)
weight_history, weight_history_ok, sigma_hist = [], [], []
for step in range(10):
    x = torch.randn(16, 4)
    out = net(x)
    l1 = (out[:, 0] - x[:, 0]).pow(2).mean()
    l2 = (out[:, 1] - 3 * x[:, 1]).abs().mean()
    total, precision = crit(torch.stack([l1, l2]))
    opt.zero_grad()
    total.backward()
    opt.step()
    weight_history.append(precision)  # expect: TEN501
    weight_history_ok.append(precision.detach())  # ok
    sigma_hist.append(torch.exp(0.5 * crit.log_vars))  # expect: TEN501

print([round(v, 4) for v in weight_history_ok[-1].tolist()], round(sigma_hist[-1][0].item(), 4))
