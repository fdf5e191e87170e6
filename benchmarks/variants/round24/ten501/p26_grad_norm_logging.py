"""Weight / gradient diagnostics logged every step (norms, update ratios, weight snapshots)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 2))
fc = model[2]
lr = 0.05
opt = torch.optim.SGD(model.parameters(), lr=lr)
grad_norms, param_norms, param_norms_ok = [], [], []
weight_hist, weight_hist_ok = [], []
update_ratio, update_ratio_ok = [], []
for step in range(5):
    x, y = torch.randn(8, 10), torch.randint(0, 2, (8,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    grad_norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))  # ok
    param_norms.append(sum(p.norm() for p in model.parameters()))  # expect: TEN501
    param_norms_ok.append(sum(p.detach().norm() for p in model.parameters()))  # ok
    update_ratio.append((lr * fc.weight.grad).norm() / fc.weight.norm())  # expect: TEN501
    update_ratio_ok.append(((lr * fc.weight.grad).norm() / fc.weight.data.norm()).item())  # ok
    opt.step()
    weight_hist.append(fc.weight.clone())  # expect: TEN501
    weight_hist_ok.append(fc.weight.detach().clone())  # ok
print(float(grad_norms[-1]), float(param_norms[-1]), update_ratio_ok[-1], len(weight_hist))
