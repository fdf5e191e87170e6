"""Gradient accumulation over micro-batches with several loss logs."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
accum_steps = 4

running = 0.0
window = torch.zeros(())
log_losses = []
update_losses = []
micro = []

for i in range(16):
    x = torch.randn(8, 6)
    y = x.sum(1, keepdim=True)
    loss = nn.functional.mse_loss(model(x), y) / accum_steps
    loss.backward()
    running += loss  # expect: TEN501
    window += loss.detach()  # ok
    log_losses.append(loss * accum_steps)  # expect: TEN501
    micro.append(loss)  # either
    if (i + 1) % accum_steps == 0:
        opt.step()
        opt.zero_grad()
        update_losses.append(sum(m.item() for m in micro))  # ok
        micro.clear()
        window.zero_()

# second phase: accumulate the loss itself and call backward once per cycle
acc_loss = 0.0
phase2 = []
for i in range(8):
    x = torch.randn(8, 6)
    y = x.sum(1, keepdim=True)
    acc_loss = acc_loss + nn.functional.mse_loss(model(x), y) / accum_steps  # either
    if (i + 1) % accum_steps == 0:
        opt.zero_grad()
        acc_loss.backward()
        opt.step()
        phase2.append(acc_loss.item())  # ok
        acc_loss = 0.0

print("running", round(float(running), 4), "logged", len(log_losses), round(float(log_losses[-1]), 4))
print("updates", [round(u, 4) for u in update_losses], "phase2", [round(p, 4) for p in phase2])
