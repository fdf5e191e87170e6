"""Binary segmentation (UNet) with early stopping; best weights kept in memory."""
import copy
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import CarvanaDataset
from unet import UNet


def dice_coeff(logits, target, eps=1e-6):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * target).sum(dim=(1, 2, 3))
    union = pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return ((2 * inter + eps) / (union + eps)).mean()


def dice_loss(logits, target, eps=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum(dim=(1, 2, 3))
    union = prob.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def train_model(model, dataloaders, criterion, optimizer, scheduler, num_epochs=40, patience=6, device="cuda"):
    since = time.time()
    best_model_wts = copy.deepcopy(model.state_dict())
    best_dice = 0.0
    bad_epochs = 0

    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            running_loss, running_dice, n = 0.0, 0.0, 0
            for images, masks in dataloaders[phase]:
                images, masks = images.to(device), masks.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    logits = model(images)
                    loss = criterion(logits, masks) + dice_loss(logits, masks)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * images.size(0)
                running_dice += dice_coeff(logits, masks).item() * images.size(0)
                n += images.size(0)

            epoch_loss, epoch_dice = running_loss / n, running_dice / n
            print(f"Epoch {epoch}/{num_epochs - 1} {phase} Loss: {epoch_loss:.4f} Dice: {epoch_dice:.4f}")

            if phase == "val":
                scheduler.step(epoch_dice)
                if epoch_dice > best_dice:
                    best_dice = epoch_dice
                    best_model_wts = copy.deepcopy(model.state_dict())
                    bad_epochs = 0
                else:
                    bad_epochs += 1
        if bad_epochs >= patience:
            print("early stopping")
            break

    elapsed = time.time() - since
    print(f"Training complete in {elapsed // 60:.0f}m {elapsed % 60:.0f}s, best val Dice: {best_dice:4f}")
    model.load_state_dict(best_model_wts)
    return model


if __name__ == "__main__":
    loaders = {
        "train": DataLoader(CarvanaDataset("data", "train"), batch_size=8, shuffle=True, num_workers=4),
        "val": DataLoader(CarvanaDataset("data", "val"), batch_size=8, num_workers=4),
    }
    net = UNet(n_channels=3, n_classes=1).cuda()
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-5, weight_decay=1e-8, momentum=0.999)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, "max", patience=2)
    net = train_model(net, loaders, nn.BCEWithLogitsLoss(), opt, sched)
    torch.save(net.state_dict(), "unet_best.pth")
