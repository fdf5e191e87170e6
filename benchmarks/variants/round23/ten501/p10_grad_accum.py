"""Gradient accumulation written two ways, plus logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(6, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
K = 3
micro_batches = [(torch.randn(2, 6), torch.randint(0, 2, (2,))) for _ in range(12)]

# (a) nested: the summed loss lives for one optimizer step and is consumed by backward
logged = 0.0
micro_log = []
for step in range(len(micro_batches) // K):
    accum_loss = 0.0
    for j in range(K):
        x, y = micro_batches[step * K + j]
        micro = F.cross_entropy(model(x), y)
        accum_loss = accum_loss + micro / K  # ok
        micro_log.append(micro.detach())  # ok
    opt.zero_grad()
    accum_loss.backward()
    opt.step()
    logged += accum_loss  # expect: TEN501

# (b) flat: the running sum spans K loop iterations before backward
running = 0.0
for i, (x, y) in enumerate(micro_batches):
    running = running + F.cross_entropy(model(x), y) / K  # either: TEN501
    if (i + 1) % K == 0:
        opt.zero_grad()
        running.backward()
        opt.step()
        running = 0.0
print(float(logged), len(micro_log))
