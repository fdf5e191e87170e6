"""Binary segmentation (e.g. nuclei / polyps) with a small U-Net."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, in_ch=3, base=32):
        super().__init__()
        chs = [base, base * 2, base * 4, base * 8]
        self.downs = nn.ModuleList()
        c = in_ch
        for ch in chs:
            self.downs.append(double_conv(c, ch))
            c = ch
        self.bottom = double_conv(chs[-1], chs[-1] * 2)
        self.ups = nn.ModuleList()
        self.up_convs = nn.ModuleList()
        c = chs[-1] * 2
        for ch in reversed(chs):
            self.ups.append(nn.ConvTranspose2d(c, ch, 2, stride=2))
            self.up_convs.append(double_conv(ch * 2, ch))
            c = ch
        self.out = nn.Conv2d(base, 1, 1)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        for up, conv, skip in zip(self.ups, self.up_convs, reversed(skips)):
            x = conv(torch.cat([up(x), skip], dim=1))
        return self.out(x)


def soft_dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(1, 2, 3))
    denom = p.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


def dice_score(logits, target, thr=0.5):
    pred = (torch.sigmoid(logits) > thr).float()
    inter = (pred * target).sum(dim=(1, 2, 3))
    return ((2 * inter + 1e-6) / (pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + 1e-6)).mean()


def train_step(model, batch, optimizer, device):
    images, masks = (t.to(device, non_blocking=True) for t in batch)
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        logits = model(images)
    logits = logits.float()
    loss = F.binary_cross_entropy_with_logits(logits, masks) + soft_dice_loss(logits, masks)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss


def eval_step(model, batch, device):
    images, masks = (t.to(device, non_blocking=True) for t in batch)
    with torch.no_grad():
        logits = model(images).float()
        loss = F.binary_cross_entropy_with_logits(logits, masks) + soft_dice_loss(logits, masks)
        dice = dice_score(logits, masks)
    return loss.detach(), dice


def run(model, train_loader, val_loader, epochs=100, lr=3e-4, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=20)
    best_dice = 0.0
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for batch in train_loader:
            epoch_loss = epoch_loss + train_step(model, batch, optimizer, device)  # expect: TEN501
        scheduler.step()

        model.eval()
        val_loss = 0.0
        dices = []
        for batch in val_loader:
            l, d = eval_step(model, batch, device)
            val_loss = val_loss + l  # ok
            dices.append(d)  # ok
        mean_dice = torch.stack(dices).mean().item()
        print(f"epoch {epoch:3d} train {float(epoch_loss) / len(train_loader):.4f} "
              f"val {float(val_loss) / len(val_loader):.4f} dice {mean_dice:.4f}")
        if mean_dice > best_dice:
            best_dice = mean_dice
            torch.save(model.state_dict(), "unet_best.pt")
    return best_dice
