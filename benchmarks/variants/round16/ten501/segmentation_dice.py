"""Binary segmentation of blobs with BCE + soft-Dice."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_blobs(bs, size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    cy, cx = torch.randint(4, size - 4, (2, bs, 1, 1))
    r = torch.randint(2, 5, (bs, 1, 1))
    mask = (((yy - cy) ** 2 + (xx - cx) ** 2) <= r ** 2).float()
    img = mask + 0.4 * torch.randn(bs, size, size)
    return img.unsqueeze(1), mask


def soft_dice(probs, target, eps=1e-6):
    inter = (probs * target).sum(dim=(1, 2))
    denom = probs.sum(dim=(1, 2)) + target.sum(dim=(1, 2))
    return ((2 * inter + eps) / (denom + eps)).mean()


def iou(pred_mask, target):
    pred_mask, target = pred_mask.bool(), target.bool()
    inter = (pred_mask & target).sum().float()
    union = (pred_mask | target).sum().float()
    return (inter / union.clamp(min=1)).item()


model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=2, dilation=2), nn.ReLU(),
    nn.Conv2d(8, 1, 1),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
dice_scores, iou_scores, fg_fraction = [], [], []

for it in range(10):
    img, mask = make_blobs(8)
    logits = model(img).squeeze(1)
    probs = torch.sigmoid(logits)
    dice = soft_dice(probs, mask)
    loss = F.binary_cross_entropy_with_logits(logits, mask) + (1 - dice)
    opt.zero_grad()
    loss.backward()
    opt.step()

    dice_scores.append(dice)  # expect: TEN501
    iou_scores.append(iou(probs > 0.5, mask))  # ok
    fg_fraction.append((probs > 0.5).float().mean())  # ok
    if it % 3 == 0:
        print(f"it {it}: loss {loss.item():.3f} dice {dice.item():.3f} iou {iou_scores[-1]:.3f}")
