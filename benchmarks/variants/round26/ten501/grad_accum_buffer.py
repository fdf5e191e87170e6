"""Gradient accumulation over micro-batches with a per-step buffer."""
import torch
import torch.nn as nn

torch.manual_seed(0)

ACCUM = 4
model = nn.Sequential(nn.Linear(8, 24), nn.SiLU(), nn.Linear(24, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
micro_log = []
step_losses = []
for opt_step in range(5):
    micro_losses = []
    for micro in range(ACCUM):
        x = torch.randn(6, 8)
        y = x[:, :3].sum(1, keepdim=True)
        l = nn.functional.mse_loss(model(x), y) / ACCUM
        micro_losses.append(l)  # ok
        micro_log.append(l)  # expect: TEN501
    step_loss = torch.stack(micro_losses).sum()
    opt.zero_grad()
    step_loss.backward()
    opt.step()
    step_losses.append(step_loss.item())  # ok
print([round(v, 4) for v in step_losses], len(micro_log))
