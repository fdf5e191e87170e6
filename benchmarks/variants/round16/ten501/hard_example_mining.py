"""Online hard-example mining driven by per-sample losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N = 256
x = torch.randn(N, 8)
y = ((x[:, 0] * x[:, 1]) > 0).long()
y[torch.randperm(N)[:20]] ^= 1  # label noise makes some samples persistently hard

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

loss_table = torch.full((N,), float("inf"))
seen_count = torch.zeros(N, dtype=torch.long)
sample_loss = {}
hard_set = set()

for epoch in range(3):
    if torch.isinf(loss_table).any():
        order = torch.randperm(N)
    else:
        order = torch.multinomial(loss_table + 1e-3, N, replacement=True)
    for start in range(0, N, 64):
        idx = order[start:start + 64]
        per_sample = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
        loss = per_sample.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

        for j, l in zip(idx.tolist(), per_sample):
            sample_loss[j] = l  # expect: TEN501
        loss_table[idx] = per_sample.detach()  # ok
        seen_count[idx] += 1  # ok
    hard = torch.topk(loss_table.nan_to_num(posinf=0.0), k=20).indices
    hard_set.update(hard.tolist())  # ok
    print(f"epoch {epoch}: loss {loss.item():.4f}, hard pool {len(hard_set)}, tracked {len(sample_loss)}")
