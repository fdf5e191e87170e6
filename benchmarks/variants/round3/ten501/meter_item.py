"""UNet binary segmentation training with meters (tensor-safe)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm


class AverageMeter:
    """Running average; accepts python numbers or tensors."""

    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        if isinstance(val, torch.Tensor):
            val = val.detach().item()
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)

    def __repr__(self):
        return f"{self.name}={self.avg:.4f}"


def dice_loss(logits, target, eps=1.0):
    prob = torch.sigmoid(logits)
    num = 2 * (prob * target).sum(dim=(1, 2, 3)) + eps
    den = prob.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + eps
    return 1 - (num / den).mean()


@torch.no_grad()
def dice_coeff(logits, target, thr=0.5):
    pred = (torch.sigmoid(logits) > thr).float()
    inter = (pred * target).sum(dim=(1, 2, 3))
    return ((2 * inter + 1) / (pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + 1)).mean()


def train_one_epoch(model, loader, optimizer, device, epoch, bce_weight=0.5):
    model.train()
    loss_meter, dice_meter = AverageMeter("loss"), AverageMeter("dice")
    pbar = tqdm(loader, desc=f"epoch {epoch}")
    for imgs, masks in pbar:
        imgs, masks = imgs.to(device), masks.to(device).float()
        logits = model(imgs)
        loss = bce_weight * F.binary_cross_entropy_with_logits(logits, masks) + \
            (1 - bce_weight) * dice_loss(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        loss_meter.update(loss, imgs.size(0))
        dice_meter.update(dice_coeff(logits, masks), imgs.size(0))
        pbar.set_postfix_str(f"{loss_meter} {dice_meter}")
    return loss_meter.avg, dice_meter.avg


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    dice_meter = AverageMeter("val_dice")
    for imgs, masks in loader:
        imgs, masks = imgs.to(device), masks.to(device).float()
        dice_meter.update(dice_coeff(model(imgs), masks), imgs.size(0))
    return dice_meter.avg


def fit(model, train_loader, val_loader, epochs=40, lr=1e-4, device="cuda", ckpt="unet_best.pt"):
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    best = 0.0
    for epoch in range(epochs):
        tr_loss, tr_dice = train_one_epoch(model, train_loader, optimizer, device, epoch)
        va_dice = validate(model, val_loader, device)
        print(f"epoch {epoch}: loss {tr_loss:.4f} dice {tr_dice:.4f} val_dice {va_dice:.4f}")
        if va_dice > best:
            best = va_dice
            torch.save(model.state_dict(), ckpt)
    return best
