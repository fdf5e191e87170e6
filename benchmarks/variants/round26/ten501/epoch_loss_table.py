"""Per-sample loss table grown with torch.cat, and per-epoch summaries in a dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(60, 6)
target = (data[:, 0] * data[:, 1] > 0).long()
loss_by_epoch = {}
loss_by_epoch_f = {}
for epoch in range(4):
    per_sample = torch.empty(0)
    per_sample_ok = torch.empty(0)
    epoch_loss = 0
    for i in range(0, 60, 15):
        l = F.cross_entropy(model(data[i:i + 15]), target[i:i + 15], reduction="none")
        opt.zero_grad()
        l.mean().backward()
        opt.step()
        per_sample = torch.cat([per_sample, l])  # expect: TEN501
        per_sample_ok = torch.cat([per_sample_ok, l.detach()])  # ok
        epoch_loss = epoch_loss + l.mean()  # expect: TEN501
    loss_by_epoch[epoch] = epoch_loss / 4  # expect: TEN501
    loss_by_epoch_f[epoch] = per_sample_ok.mean().item()  # ok
    print(epoch, round(per_sample.mean().item(), 4), round(loss_by_epoch_f[epoch], 4), round(float(loss_by_epoch[epoch]), 4))
