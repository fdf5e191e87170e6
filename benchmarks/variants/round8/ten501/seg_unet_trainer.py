import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

logger = logging.getLogger(__name__)


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, in_ch=3, num_classes=4, base=32):
        super().__init__()
        chs = [base, base * 2, base * 4, base * 8]
        self.downs = nn.ModuleList()
        prev = in_ch
        for c in chs:
            self.downs.append(double_conv(prev, c))
            prev = c
        self.bottleneck = double_conv(chs[-1], chs[-1] * 2)
        self.ups = nn.ModuleList()
        self.up_convs = nn.ModuleList()
        prev = chs[-1] * 2
        for c in reversed(chs):
            self.ups.append(nn.ConvTranspose2d(prev, c, 2, stride=2))
            self.up_convs.append(double_conv(c * 2, c))
            prev = c
        self.head = nn.Conv2d(chs[0], num_classes, 1)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottleneck(x)
        for up, conv, skip in zip(self.ups, self.up_convs, reversed(skips)):
            x = up(x)
            x = conv(torch.cat([skip, x], dim=1))
        return self.head(x)


class SegTrainer:
    def __init__(self, model, optimizer, num_classes, device, amp=True, dice_weight=1.0):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.num_classes = num_classes
        self.device = device
        self.amp = amp
        self.dice_weight = dice_weight
        self.scaler = torch.cuda.amp.GradScaler(enabled=amp)

    @staticmethod
    def soft_dice(probs, onehot, eps=1e-6):
        dims = (0, 2, 3)
        inter = (probs * onehot).sum(dims)
        denom = probs.sum(dims) + onehot.sum(dims)
        return (2.0 * inter + eps) / (denom + eps)

    def train_epoch(self, loader, epoch):
        self.model.train()
        class_dice = torch.zeros(self.num_classes, device=self.device)
        loss_sum, n_batches = 0.0, 0
        for imgs, masks in loader:
            imgs = imgs.to(self.device, non_blocking=True)
            masks = masks.to(self.device, non_blocking=True).long()

            with torch.autocast(device_type="cuda", enabled=self.amp):
                logits = self.model(imgs)
                ce = F.cross_entropy(logits, masks)
                probs = logits.float().softmax(dim=1)
                onehot = F.one_hot(masks, self.num_classes).permute(0, 3, 1, 2).float()
                dice = self.soft_dice(probs, onehot)
                loss = ce + self.dice_weight * (1.0 - dice.mean())  # ok

            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()

            class_dice += dice  # expect: TEN501
            loss_sum += loss.item()  # ok
            n_batches += 1

        per_class = (class_dice / max(n_batches, 1)).tolist()
        logger.info("epoch %d train loss %.4f dice %s", epoch, loss_sum / n_batches,
                    " ".join(f"{d:.3f}" for d in per_class))
        return loss_sum / n_batches, per_class

    def validate(self, loader):
        self.model.eval()
        inter = torch.zeros(self.num_classes, device=self.device)
        union = torch.zeros(self.num_classes, device=self.device)
        val_loss = 0.0
        with torch.inference_mode():
            for imgs, masks in loader:
                imgs, masks = imgs.to(self.device), masks.to(self.device).long()
                logits = self.model(imgs)
                val_loss += F.cross_entropy(logits, masks)  # ok
                pred = logits.argmax(dim=1)
                for c in range(self.num_classes):
                    p, t = pred == c, masks == c
                    inter[c] += (p & t).sum()  # ok
                    union[c] += (p | t).sum()  # ok
        iou = inter / union.clamp(min=1)
        return float(val_loss) / len(loader), iou.mean().item(), iou.tolist()


def main():
    from dataset import SegFolder  # local dataset module

    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--classes", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=80)
    parser.add_argument("--bs", type=int, default=8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    device = torch.device("cuda")
    train_dl = DataLoader(SegFolder(args.root, "train"), batch_size=args.bs, shuffle=True, num_workers=6)
    val_dl = DataLoader(SegFolder(args.root, "val"), batch_size=args.bs, num_workers=6)
    model = UNet(num_classes=args.classes)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=1e-4)
    trainer = SegTrainer(model, opt, args.classes, device)

    best = 0.0
    for epoch in range(args.epochs):
        trainer.train_epoch(train_dl, epoch)
        vloss, miou, ious = trainer.validate(val_dl)
        logger.info("val loss %.4f mIoU %.4f", vloss, miou)
        if miou > best:
            best = miou
            torch.save(model.state_dict(), "unet_best.pt")


if __name__ == "__main__":
    main()
