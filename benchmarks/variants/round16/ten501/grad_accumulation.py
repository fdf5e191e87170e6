"""Gradient accumulation over micro-batches with gradient clipping."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

ACCUM_STEPS = 4
MAX_NORM = 1.0

x = torch.randn(512, 12)
y = x @ torch.randn(12, 1) + 0.2 * torch.randn(512, 1)
loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

model = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 1))
criterion = nn.SmoothL1Loss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

norm_history = []
window_losses = []
grad_snapshots = []
epoch_loss = 0.0

for epoch in range(2):
    optimizer.zero_grad()
    accumulated = 0.0
    for i, (xb, yb) in enumerate(loader):
        out = model(xb)
        loss = criterion(out, yb) / ACCUM_STEPS
        accumulated = accumulated + loss  # ok
        epoch_loss += loss  # expect: TEN501

        if (i + 1) % ACCUM_STEPS == 0:
            accumulated.backward()
            total_norm = nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
            norm_history.append(total_norm)  # ok
            if len(grad_snapshots) < 3:
                grad_snapshots.append([p.grad.clone() for p in model.parameters()])  # ok
            optimizer.step()
            optimizer.zero_grad()
            window_losses.append(accumulated.item())  # ok
            accumulated = 0.0  # reset window
    print(f"epoch {epoch}: mean window loss {sum(window_losses) / len(window_losses):.4f}, "
          f"epoch loss {epoch_loss.item():.3f}, last norm {norm_history[-1].item():.3f}")
    epoch_loss = 0.0
