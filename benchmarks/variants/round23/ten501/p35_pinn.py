"""Physics-informed network: PDE residual via autograd.grad(create_graph=True)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
residual_hist, bc_hist = [], []
for it in range(4):
    x = torch.rand(16, 1, requires_grad=True)
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    res = du - torch.cos(x)
    bc = net(torch.zeros(1, 1)).pow(2).mean()
    loss = res.pow(2).mean() + bc
    opt.zero_grad()
    loss.backward()
    opt.step()
    residual_hist.append(res.pow(2).mean())  # expect: TEN501
    bc_hist.append(bc.item())  # ok
print(len(residual_hist), bc_hist[-1])
