"""Fine-tune a torchvision ResNet-50 on an ImageFolder dataset.

Usage:
    python train_classifier.py --data /data/flowers --epochs 30 --out runs/flowers
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms


def build_loaders(root, batch_size, workers):
    normalize = transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    train_tf = transforms.Compose([
        transforms.RandomResizedCrop(224),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        normalize,
    ])
    eval_tf = transforms.Compose([
        transforms.Resize(256),
        transforms.CenterCrop(224),
        transforms.ToTensor(),
        normalize,
    ])
    train_set = datasets.ImageFolder(os.path.join(root, "train"), train_tf)
    val_set = datasets.ImageFolder(os.path.join(root, "val"), eval_tf)
    test_set = datasets.ImageFolder(os.path.join(root, "test"), eval_tf)
    kw = dict(batch_size=batch_size, num_workers=workers, pin_memory=True)
    return (
        DataLoader(train_set, shuffle=True, drop_last=True, **kw),
        DataLoader(val_set, shuffle=False, **kw),
        DataLoader(test_set, shuffle=False, **kw),
        len(train_set.classes),
    )


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for images, targets in loader:
        images = images.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        logits = model(images)
        loss_sum += F.cross_entropy(logits, targets, reduction="sum").item()
        correct += (logits.argmax(dim=1) == targets).sum().item()
        total += targets.numel()
    return loss_sum / max(total, 1), correct / max(total, 1)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--out", default="runs/default")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--workers", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--wd", type=float, default=1e-4)
    p.add_argument("--clip", type=float, default=2.0)
    p.add_argument("--patience", type=int, default=5)
    return p.parse_args()


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_loader, val_loader, test_loader, num_classes = build_loaders(
        args.data, args.batch_size, args.workers
    )
    model = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V2)
    model.fc = nn.Linear(model.fc.in_features, num_classes)
    model.to(device)

    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim <= 1 else decay).append(p)  # ok
    optimizer = torch.optim.SGD(
        [{"params": decay, "weight_decay": args.wd}, {"params": no_decay, "weight_decay": 0.0}],
        lr=args.lr,
        momentum=0.9,
        nesterov=True,
    )
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(
        optimizer, T_max=args.epochs * len(train_loader)
    )
    scaler = torch.cuda.amp.GradScaler(enabled=device.type == "cuda")

    best_acc, best_epoch, stale = 0.0, -1, 0
    top_weights = None
    for epoch in range(args.epochs):
        model.train()
        t0 = time.time()
        for images, targets in train_loader:
            images = images.to(device, non_blocking=True)
            targets = targets.to(device, non_blocking=True)
            with torch.autocast(device_type=device.type, enabled=device.type == "cuda"):
                loss = F.cross_entropy(model(images), targets, label_smoothing=0.1)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            nn.utils.clip_grad_norm_(decay + no_decay, args.clip)
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()

        val_loss, val_acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch:3d}  val_loss {val_loss:.4f}  val_acc {val_acc:.4f}  ({time.time() - t0:.0f}s)")
        if val_acc > best_acc:
            best_acc, best_epoch, stale = val_acc, epoch, 0
            top_weights = model.state_dict()  # expect: TEN402
            torch.save(model.state_dict(), os.path.join(args.out, "best.pt"))  # ok
        else:
            stale += 1
            if stale >= args.patience:
                print(f"no improvement for {stale} epochs, stopping")
                break

    if top_weights is not None:
        model.load_state_dict(top_weights)
    _, test_acc = evaluate(model, test_loader, device)
    print(f"best epoch {best_epoch}: val acc {best_acc:.4f} -> test acc {test_acc:.4f}")
    torch.save(model.state_dict(), os.path.join(args.out, "final.pt"))


if __name__ == "__main__":
    main()
