"""Stochastic weight averaging written inline vs. torch.optim.swa_utils."""
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_model = AveragedModel(model)
swa_params = [p.detach().clone() for p in model.parameters()]
swa_params_ng = [p.detach().clone() for p in model.parameters()]
n_avg = 0
X, Y = torch.randn(48, 4), torch.randint(0, 2, (48,))

for epoch in range(8):
    for b in range(0, 48, 16):
        loss = nn.functional.cross_entropy(model(X[b:b + 16]), Y[b:b + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch >= 2:
        n_avg += 1
        for sp, p in zip(swa_params, model.parameters()):
            sp.mul_((n_avg - 1) / n_avg).add_(p / n_avg)  # expect: TEN501
        with torch.no_grad():
            for sp, p in zip(swa_params_ng, model.parameters()):
                sp.mul_((n_avg - 1) / n_avg).add_(p / n_avg)  # ok
        swa_model.update_parameters(model)  # ok

print("n averaged", n_avg)
print("inline", round(swa_params[0].sum().item(), 4), "no_grad", round(swa_params_ng[0].sum().item(), 4))
print("swa_utils", round(next(swa_model.module.parameters()).sum().item(), 4))
