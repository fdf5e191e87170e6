import glob
import os

import numpy as np
import segmentation_models_pytorch as smp
import torch
import torch.nn.functional as F
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class PolypDataset(Dataset):
    def __init__(self, root, split="train", size=352):
        self.images = sorted(glob.glob(os.path.join(root, split, "images", "*.png")))
        self.masks = sorted(glob.glob(os.path.join(root, split, "masks", "*.png")))
        self.size = size

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = Image.open(self.images[i]).convert("RGB").resize((self.size, self.size))
        mask = Image.open(self.masks[i]).convert("L").resize((self.size, self.size), Image.NEAREST)
        img = torch.from_numpy(np.asarray(img, dtype=np.float32) / 255.0).permute(2, 0, 1)
        mask = torch.from_numpy((np.asarray(mask) > 127).astype(np.int64))
        return img, mask


class DiceScore:
    def __init__(self, num_classes=2, eps=1e-6, ignore_background=True):
        self.num_classes = num_classes
        self.eps = eps
        self.ignore_background = ignore_background
        self.reset()

    def reset(self):
        self.inter = torch.zeros(self.num_classes)
        self.denom = torch.zeros(self.num_classes)

    def update(self, probs, target):
        onehot = F.one_hot(target, self.num_classes).permute(0, 3, 1, 2).float()
        dims = (0, 2, 3)
        self.inter += (probs * onehot).sum(dims).cpu()  # expect: TEN501
        self.denom += (probs + onehot).sum(dims).cpu()  # expect: TEN501

    def compute(self):
        dice = (2 * self.inter + self.eps) / (self.denom + self.eps)
        if self.ignore_background:
            dice = dice[1:]
        return dice.mean().item()


class PixelAccuracy:
    def __init__(self):
        self.correct = 0
        self.total = 0

    def update(self, logits, target):
        self.correct += (logits.argmax(1) == target).sum().item()  # ok
        self.total += target.numel()

    def compute(self):
        return self.correct / max(self.total, 1)


def soft_dice_loss(probs, target, eps=1.0):
    onehot = F.one_hot(target, probs.shape[1]).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum((2, 3))
    denom = probs.sum((2, 3)) + onehot.sum((2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_dl = DataLoader(PolypDataset("data/kvasir", "train"), batch_size=16, shuffle=True, num_workers=4)
    val_dl = DataLoader(PolypDataset("data/kvasir", "val"), batch_size=16, num_workers=4)
    model = smp.Unet("efficientnet-b3", encoder_weights="imagenet", classes=2).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=50)

    train_dice, val_dice = DiceScore(), DiceScore()
    train_acc = PixelAccuracy()
    best = 0.0
    for epoch in range(50):
        model.train()
        train_dice.reset()
        train_acc = PixelAccuracy()
        for images, masks in train_dl:
            images, masks = images.to(device), masks.to(device)
            logits = model(images)
            probs = logits.softmax(1)
            loss = F.cross_entropy(logits, masks) + soft_dice_loss(probs, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            train_dice.update(probs, masks)
            train_acc.update(logits, masks)
        scheduler.step()

        model.eval()
        val_dice.reset()
        with torch.no_grad():
            for images, masks in val_dl:
                images, masks = images.to(device), masks.to(device)
                val_dice.update(model(images).softmax(1), masks)
        score = val_dice.compute()
        print(f"epoch {epoch}: train dice {train_dice.compute():.4f} acc {train_acc.compute():.4f} val dice {score:.4f}")
        if score > best:
            best = score
            torch.save(model.state_dict(), "unet_best.pth")


if __name__ == "__main__":
    main()
