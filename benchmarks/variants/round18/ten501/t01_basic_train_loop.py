"""Plain supervised regression loop that keeps a few per-step histories for plotting."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
x = torch.randn(32, 4)
y = x.sum(dim=1, keepdim=True)

losses = []
loss_values = []
learning_rates = []
grad_norms = []
last_preds = []

for step in range(5):
    optimizer.zero_grad()
    pred = model(x)
    loss = F.mse_loss(pred, y)
    loss.backward()
    total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    scheduler.step()

    losses.append(loss)  # expect: TEN501
    loss_values.append(loss.item())  # ok
    learning_rates.append(scheduler.get_last_lr()[0])  # ok
    grad_norms.append(total_norm)  # ok
    last_preds.append(pred.detach()[:4])  # ok

print("step losses:", [round(v, 4) for v in loss_values])
print(f"kept {len(losses)} loss tensors, lr now {learning_rates[-1]:.4f}, "
      f"max grad norm {max(float(g) for g in grad_norms):.3f}, {len(last_preds)} snapshots")
