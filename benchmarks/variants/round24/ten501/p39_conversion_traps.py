"""Loss values converted in different ways before they are kept for a plot."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
bound, as_cpu, cloned, as_f64 = [], [], [], []
detached, as_cpu_ok, rebuilt, as_list, via_data = [], [], [], [], []
latest = {}
for step in range(5):
    x, y = torch.randn(7, 6), torch.randn(7, 1)
    pred = model(x)
    loss = F.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    bound.append(loss.detach)  # expect: TEN501
    detached.append(loss.detach())  # ok
    as_cpu.append(loss.cpu())  # expect: TEN501
    as_cpu_ok.append(loss.detach().cpu())  # ok
    cloned.append(loss.clone())  # expect: TEN501
    rebuilt.append(torch.tensor(loss.item()))  # ok
    as_f64.append(loss.to(torch.float64))  # expect: TEN501
    as_list.append(pred.squeeze(1).tolist())  # ok
    via_data.append(pred.data.mean())  # ok
    latest["pred"] = pred  # either: TEN501
print(float(bound[-1]()), len(as_cpu), float(as_f64[-1]), as_list[-1][:2], float(via_data[-1]))
