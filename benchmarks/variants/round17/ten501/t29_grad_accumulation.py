"""Gradient accumulation over micro-batches."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

ACCUM = 3
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.02)
micro_batches = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(12)]

step_losses = []
epoch_total = 0.0
for epoch in range(2):
    micro_losses = []
    accum_value = 0.0
    optimizer.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        loss = nn.functional.mse_loss(model(x), y) / ACCUM
        loss.backward()
        micro_losses.append(loss)  # ok
        accum_value += loss.item()  # ok
        epoch_total += loss  # expect: TEN501
        if (i + 1) % ACCUM == 0:
            optimizer.step()
            optimizer.zero_grad()
            step_losses.append(sum(l.item() for l in micro_losses))  # ok
            micro_losses = []
            accum_value = 0.0

print(len(step_losses), step_losses[-1], float(epoch_total))
