import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Linear(10, 10)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
norm_log, norm_log_ok = [], []
snapshots, snapshots_ok = [], []
spectral = []
bias_trace = []

for step in range(8):
    x = torch.randn(20, 10)
    loss = F.mse_loss(model(x), x.roll(1, dims=1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    norm_log.append(model.weight.norm())  # expect: TEN501
    with torch.no_grad():
        norm_log_ok.append(model.weight.norm())  # ok
        spectral.append(torch.linalg.matrix_norm(model.weight, ord=2))  # ok
    snapshots.append(model.weight.clone())  # expect: TEN501
    snapshots_ok.append(model.weight.detach().clone())  # ok
    bias_trace.append(model.bias * 1.0)  # expect: TEN501

drift = [(a - b).norm().item() for a, b in zip(snapshots_ok[1:], snapshots_ok[:-1])]
print("weight norm", [round(v.item(), 3) for v in norm_log_ok[::2]])
print("drift", [round(d, 4) for d in drift[:4]], "spectral", round(spectral[-1].item(), 4))
