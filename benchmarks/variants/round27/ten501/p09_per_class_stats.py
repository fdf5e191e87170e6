"""Per-class loss / accuracy bookkeeping during training (imbalanced classes)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES = 4
model = nn.Sequential(nn.Linear(7, 24), nn.GELU(), nn.Linear(24, NUM_CLASSES))
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)

class_loss = {}
class_loss_clean = {c: 0.0 for c in range(NUM_CLASSES)}
class_correct = {c: 0 for c in range(NUM_CLASSES)}
class_count = {c: 0 for c in range(NUM_CLASSES)}

for step in range(9):
    x = torch.randn(32, 7)
    y = torch.randint(0, NUM_CLASSES, (32,))
    logits = model(x)
    per_sample = F.cross_entropy(logits, y, reduction="none")
    pred = logits.argmax(dim=1)
    loss = per_sample.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for c in range(NUM_CLASSES):
        mask = y == c
        if mask.sum() == 0:
            continue
        class_loss[c] = class_loss.get(c, 0.0) + per_sample[mask].sum()  # expect: TEN501
        class_loss_clean[c] += per_sample[mask].sum().item()  # ok
        class_correct[c] += (pred[mask] == c).sum()  # ok
        class_count[c] += int(mask.sum())  # ok

for c in range(NUM_CLASSES):
    print(c, round(class_loss[c].item() / class_count[c], 4),
          round(class_loss_clean[c] / class_count[c], 4),
          round(float(class_correct[c]) / class_count[c], 3))
