"""Per-class loss / accuracy bookkeeping in a segmentation-like pixel classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

C = 3
net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, C, 1))
opt = torch.optim.Adam(net.parameters(), lr=5e-3)

class_loss = torch.zeros(C)
class_loss_f = [0.0] * C
class_correct = torch.zeros(C)
class_count = torch.zeros(C)
for it in range(8):
    img = torch.randn(4, 1, 12, 12)
    target = (img[:, 0] > 0.5).long() + (img[:, 0] > 1.2).long()
    logits = net(img)
    pix_loss = F.cross_entropy(logits, target, reduction="none")
    loss = pix_loss.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    pred = logits.argmax(1)
    for c in range(C):
        mask = target == c
        if mask.any():
            class_loss[c] += pix_loss[mask].sum()  # expect: TEN501
            class_loss_f[c] += pix_loss[mask].sum().item()  # ok
            class_correct[c] += (pred[mask] == c).sum()  # ok
            class_count[c] += mask.sum()
print("mean loss per class", (class_loss / class_count).tolist())
print("mean loss per class (f)", [l / n for l, n in zip(class_loss_f, class_count.tolist())])
print("acc per class", (class_correct / class_count).tolist())
