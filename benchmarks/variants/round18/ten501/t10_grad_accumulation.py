"""Gradient accumulation over micro-batches, with per-update loss bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
micro = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(5)]
accum_steps = 3

step_history = []
step_values = []
ema_loss = None
ema_value = None

for update in range(4):
    opt.zero_grad(set_to_none=True)
    micro_losses = []
    step_loss = 0.0
    for k in range(accum_steps):
        xb, yb = micro[(update * accum_steps + k) % len(micro)]
        loss = F.mse_loss(model(xb), yb) / accum_steps
        loss.backward()
        micro_losses.append(loss)  # ok
        step_loss += loss.item()  # ok
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    total = torch.stack(micro_losses).sum()
    step_history.append(total)  # expect: TEN501
    step_values.append(step_loss)  # ok
    ema_loss = total if ema_loss is None else 0.9 * ema_loss + 0.1 * total  # expect: TEN501
    ema_value = total.item() if ema_value is None else 0.9 * ema_value + 0.1 * total.item()  # ok

print("update losses:", [round(v, 4) for v in step_values], "ema:", round(ema_value, 4))
