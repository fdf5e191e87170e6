"""Gradient accumulation, two styles: backward per micro-batch, and one backward per step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(512, 16)
y = torch.sin(x[:, :4].sum(1, keepdim=True))
model = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

# ---- style 1 (HF Trainer-like): backward on every micro batch -------------
accum_steps = 4
micro_bs = 16
tr_loss = torch.tensor(0.0)
global_loss = 0.0
logging_loss_scalar = 0.0
logged = []
step_losses = []
for step in range(32):
    i = (step * micro_bs) % len(x)
    xb, yb = x[i:i + micro_bs], y[i:i + micro_bs]
    loss = F.mse_loss(model(xb), yb) / accum_steps
    loss.backward()
    tr_loss += loss.detach()  # ok
    global_loss += loss  # expect: TEN501
    step_losses.append(loss * accum_steps)  # expect: TEN501
    if (step + 1) % accum_steps == 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        tr_loss_scalar = tr_loss.item()
        logged.append(tr_loss_scalar - logging_loss_scalar)
        logging_loss_scalar = tr_loss_scalar

print("style 1: logged per-update losses", [round(v, 4) for v in logged[:4]], "...")
print("global loss:", global_loss.item(), "mean micro loss:", torch.stack(step_losses).mean().item())

# ---- style 2: sum micro-batch losses, single backward per optimizer step --
history = []
update_losses = []
for update in range(8):
    optimizer.zero_grad()
    micro_losses = []
    total = 0.0
    for m in range(accum_steps):
        i = ((update * accum_steps + m) * micro_bs) % len(x)
        xb, yb = x[i:i + micro_bs], y[i:i + micro_bs]
        l = F.mse_loss(model(xb), yb)
        micro_losses.append(l)  # either
        total = total + l / accum_steps  # either
    total.backward()
    optimizer.step()
    history.append([ml.item() for ml in micro_losses])  # ok
    update_losses.append(total.detach())  # ok

print("style 2: last update micro losses", [round(v, 4) for v in history[-1]])
print("style 2 mean:", torch.stack(update_losses).mean().item())
