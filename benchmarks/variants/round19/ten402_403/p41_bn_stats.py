"""Track how much BatchNorm running statistics move during a calibration pass."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
stats_before = {n: b for n, b in model.named_buffers() if "running" in n}  # expect: TEN402
stats_before_ok = {n: b.clone() for n, b in model.named_buffers() if "running" in n}  # ok
weights_before = {n: p for n, p in model.named_parameters()}  # ok

model.train()
with torch.no_grad():
    for _ in range(5):
        model(torch.randn(16, 4) * 3 + 2)

for n, b in model.named_buffers():
    if "running" in n:
        print(f"{n}: moved naive={(b - stats_before[n]).abs().sum().item():.4f} real={(b - stats_before_ok[n]).abs().sum().item():.4f}")
print("weights unchanged:", all(torch.equal(p, weights_before[n]) for n, p in model.named_parameters()))
