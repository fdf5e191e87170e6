"""Stochastic weight averaging: hand-rolled running mean vs torch.optim.swa_utils."""
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
swa_model = AveragedModel(net)
swa_params = [torch.zeros_like(p) for p in net.parameters()]
swa_params_ok = [torch.zeros_like(p) for p in net.parameters()]
n_averaged = 0
x, y = torch.randn(40, 5), torch.randn(40, 1)
for epoch in range(10):
    loss = nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch >= 3:
        for swa_p, p in zip(swa_params, net.parameters()):
            swa_p += (p - swa_p) / (n_averaged + 1)  # expect: TEN501
        with torch.no_grad():
            for swa_p, p in zip(swa_params_ok, net.parameters()):
                swa_p += (p - swa_p) / (n_averaged + 1)  # ok
        swa_model.update_parameters(net)  # ok
        n_averaged += 1
print("n_averaged", n_averaged, "swa_utils", int(swa_model.n_averaged))
print([round(float(a.sum() - b.sum()), 6) for a, b in zip(swa_params, swa_params_ok)])
