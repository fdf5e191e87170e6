"""Magnitude pruning then fine-tuning; dense weights kept to report how much pruning cost."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 40), nn.ReLU(), nn.Linear(40, 2))
x = torch.randn(100, 10)
y = (x[:, :5].sum(1) > x[:, 5:].sum(1)).long()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for _ in range(40):
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()

log_sd = model.state_dict()  # ok
print("dense |w| sum", round(sum(v.abs().sum().item() for v in log_sd.values()), 4))
dense_sd = model.state_dict()  # expect: TEN402

with torch.no_grad():
    for m in model:
        if isinstance(m, nn.Linear):
            thr = m.weight.abs().flatten().kthvalue(int(0.8 * m.weight.numel())).values
            m.weight.mul_((m.weight.abs() > thr).float())
    pruned_acc = (model(x).argmax(1) == y).float().mean().item()

scratch = nn.Sequential(nn.Linear(10, 40), nn.ReLU(), nn.Linear(40, 2))
scratch.load_state_dict(dense_sd)
with torch.no_grad():
    dense_acc = (scratch(x).argmax(1) == y).float().mean().item()
print(f"dense acc {dense_acc:.4f} pruned acc {pruned_acc:.4f} cost {dense_acc - pruned_acc:.4f}")
