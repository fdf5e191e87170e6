"""Multi-task regression with uncertainty weighting; per-term totals per epoch."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)

tasks = ["depth", "normal", "edge"]
trunk = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
heads = nn.ModuleDict({t: nn.Linear(32, 1) for t in tasks})
log_vars = nn.Parameter(torch.zeros(len(tasks)))
opt = torch.optim.Adam(list(trunk.parameters()) + list(heads.parameters()) + [log_vars], lr=5e-3)

for epoch in range(2):
    term_sums = {t: 0.0 for t in tasks}
    term_sums_f = {t: 0.0 for t in tasks}
    weight_trace = []
    weight_trace_f = []
    for it in range(6):
        x = torch.randn(24, 10)
        feats = trunk(x)
        total = 0.0
        for i, t in enumerate(tasks):
            target = x[:, i:i + 1] * (i + 1)
            term = nn.functional.mse_loss(heads[t](feats), target)
            total = total + torch.exp(-log_vars[i]) * term + log_vars[i]
            term_sums[t] = term_sums[t] + term  # expect: TEN501
            term_sums_f[t] += term.item()  # ok
        opt.zero_grad()
        total.backward()
        opt.step()
        weight_trace.append(torch.exp(-log_vars))  # expect: TEN501
        weight_trace_f.append(torch.exp(-log_vars).tolist())  # ok
    print(epoch, {t: round(float(v) / 6, 3) for t, v in term_sums.items()}, {t: round(v / 6, 3) for t, v in term_sums_f.items()}, [round(w, 3) for w in weight_trace_f[-1]], math.isfinite(weight_trace[-1].sum().item()))
