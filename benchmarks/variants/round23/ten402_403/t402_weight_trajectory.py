"""Record the first-layer weights every epoch to plot distance-from-init later."""
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.5)
data = torch.randn(30, 5)
target = data[:, :1] * 2

trajectory = []
trajectory_cloned = []
for epoch in range(4):
    trajectory.append(net[0].weight.detach())  # expect: TEN402
    trajectory_cloned.append(net[0].weight.detach().clone())  # ok
    opt.zero_grad()
    nn.functional.mse_loss(net(data), target).backward()
    opt.step()

dist = [round((w - trajectory[0]).norm().item(), 6) for w in trajectory]
dist_c = [round((w - trajectory_cloned[0]).norm().item(), 6) for w in trajectory_cloned]
print("distance from init (detach):", dist)
print("distance from init (clone):", dist_c)
