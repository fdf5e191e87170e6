import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision.models.segmentation import deeplabv3_resnet50

import logutil
from data import VOCSegDataset, train_transforms, val_transforms


def confusion_matrix(pred, target, num_classes, ignore_index=255):
    mask = target != ignore_index
    idx = num_classes * target[mask] + pred[mask]
    return torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="data/VOCdevkit")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--bs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--aux-weight", type=float, default=0.4)
    args = parser.parse_args()

    device = torch.device("cuda")
    num_classes = 21
    logutil.init("runs/deeplab")
    train_ds = VOCSegDataset(args.root, "train", train_transforms())
    val_ds = VOCSegDataset(args.root, "val", val_transforms())
    train_dl = DataLoader(train_ds, batch_size=args.bs, shuffle=True, num_workers=8, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=1, num_workers=4)

    model = deeplabv3_resnet50(num_classes=num_classes, aux_loss=True).to(device)
    params = [
        {"params": model.backbone.parameters(), "lr": args.lr},
        {"params": model.classifier.parameters(), "lr": args.lr * 10},
        {"params": model.aux_classifier.parameters(), "lr": args.lr * 10},
    ]
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=1e-4)
    total_iters = args.epochs * len(train_dl)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda it: (1 - it / total_iters) ** 0.9)

    step = 0
    for epoch in range(args.epochs):
        model.train()
        for images, masks in train_dl:
            images, masks = images.to(device), masks.to(device)
            out = model(images)
            main_loss = F.cross_entropy(out["out"], masks, ignore_index=255)
            aux_loss = F.cross_entropy(out["aux"], masks, ignore_index=255)
            loss = main_loss + args.aux_weight * aux_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()

            logutil.accumulate("train/aux_loss", aux_loss, images.size(0))
            if step % 20 == 0:
                logutil.log_metric("train/loss", loss, step)
                logutil.log_metric("train/lr", scheduler.get_last_lr()[0], step)
            step += 1
        print(epoch, logutil.flush_running(step))

        model.eval()
        conf = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)
        with torch.no_grad():
            for images, masks in val_dl:
                images, masks = images.to(device), masks.to(device)
                pred = model(images)["out"].argmax(1)
                conf += confusion_matrix(pred.flatten(), masks.flatten(), num_classes)  # ok
        iou = conf.diag().float() / (conf.sum(0) + conf.sum(1) - conf.diag()).clamp(min=1).float()
        logutil.log_metric("val/mIoU", iou.mean().item(), step)
        torch.save(model.state_dict(), f"runs/deeplab/ep{epoch}.pth")
    logutil.dump("runs/deeplab/history.json")


if __name__ == "__main__":
    main()
