"""Stochastic weight averaging collected from the tail of training."""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
X, Y = torch.randn(60, 6), torch.randn(60, 1)

snapshots = []
snapshots_vec = []
for epoch in range(12):
    for i in range(0, 60, 20):
        opt.zero_grad()
        ((model(X[i:i + 20]) - Y[i:i + 20]) ** 2).mean().backward()
        opt.step()
    if epoch >= 6:
        snapshots.append([p.detach() for p in model.parameters()])  # expect: TEN402
        snapshots_vec.append(parameters_to_vector(model.parameters()).detach())  # ok

swa_naive = [torch.stack(ps).mean(0) for ps in zip(*snapshots)]
swa_vec = torch.stack(snapshots_vec).mean(0)
final = parameters_to_vector(model.parameters()).detach()
print("naive swa == final weights:", torch.allclose(parameters_to_vector(swa_naive), final))
vector_to_parameters(swa_vec, model.parameters())
print("swa loss", ((model(X) - Y) ** 2).mean().item())
