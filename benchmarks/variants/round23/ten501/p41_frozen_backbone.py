"""Linear probe on a frozen backbone (requires_grad=False, no no_grad block)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
for p in backbone.parameters():
    p.requires_grad_(False)
probe = nn.Linear(16, 2)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
feature_bank, probe_outs, label_counts = [], [], torch.zeros(2)
for step in range(4):
    x, y = torch.randn(6, 8), torch.randint(0, 2, (6,))
    feats = backbone(x)
    logits = probe(feats)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    feature_bank.append(feats)  # ok
    probe_outs.append(logits)  # expect: TEN501
    label_counts += torch.bincount(y, minlength=2)  # ok
print(len(feature_bank), len(probe_outs), label_counts.tolist())
