import argparse
import time

import timm
import torch
import torch.nn as nn
from timm.data import create_dataset, create_loader, resolve_data_config
from torch.cuda.amp import GradScaler, autocast


def train_step(model, images, targets, criterion, optimizer, scaler, clip_grad=None):
    with autocast():
        outputs = model(images)
        loss = criterion(outputs, targets)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    if clip_grad is not None:
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), clip_grad)
    scaler.step(optimizer)
    scaler.update()
    return loss


@torch.no_grad()
def val_step(model, images, targets, criterion):
    with autocast():
        outputs = model(images)
        loss = criterion(outputs, targets)
    correct = (outputs.argmax(-1) == targets).sum()
    return loss, correct


def train_epoch(model, loader, criterion, optimizer, scaler, lr_scheduler, epoch, device, clip_grad=None):
    model.train()
    meter_sum = 0.0
    n = 0
    t0 = time.time()
    num_updates = epoch * len(loader)
    for batch_idx, (images, targets) in enumerate(loader):
        images, targets = images.to(device), targets.to(device)
        meter_sum += train_step(model, images, targets, criterion, optimizer, scaler, clip_grad) * images.size(0)  # expect: TEN501
        n += images.size(0)
        num_updates += 1
        lr_scheduler.step_update(num_updates=num_updates)
        if batch_idx % 100 == 0:
            print(f"Train: {epoch} [{batch_idx}/{len(loader)}] loss {float(meter_sum) / n:.4f} "
                  f"{n / (time.time() - t0):.1f} img/s")
    return float(meter_sum) / n


def validate(model, loader, criterion, device):
    model.eval()
    val_sum, correct_sum, n = 0.0, 0, 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        loss, correct = val_step(model, images, targets, criterion)
        val_sum += loss * images.size(0)  # ok
        correct_sum += correct  # ok
        n += images.size(0)
    return float(val_sum) / n, float(correct_sum) / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default="data/imagenette2-320")
    parser.add_argument("--model", default="convnext_tiny")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--bs", type=int, default=128)
    args = parser.parse_args()

    from timm.loss import LabelSmoothingCrossEntropy
    from timm.optim import create_optimizer_v2
    from timm.scheduler import CosineLRScheduler

    device = torch.device("cuda")
    model = timm.create_model(args.model, pretrained=False, num_classes=10).to(device)
    data_config = resolve_data_config({}, model=model)
    train_ds = create_dataset("", root=args.data_dir, split="train", is_training=True)
    val_ds = create_dataset("", root=args.data_dir, split="val")
    train_loader = create_loader(train_ds, input_size=data_config["input_size"], batch_size=args.bs,
                                 is_training=True, auto_augment="rand-m9-mstd0.5", num_workers=8)
    val_loader = create_loader(val_ds, input_size=data_config["input_size"], batch_size=256, num_workers=8)
    optimizer = create_optimizer_v2(model, "adamw", lr=args.lr, weight_decay=0.05)
    lr_scheduler = CosineLRScheduler(optimizer, t_initial=args.epochs * len(train_loader), warmup_t=500,
                                     warmup_lr_init=1e-6)
    scaler = GradScaler()
    train_crit = LabelSmoothingCrossEntropy(0.1)
    val_crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        tr = train_epoch(model, train_loader, train_crit, optimizer, scaler, lr_scheduler, epoch, device, clip_grad=5.0)
        vl, acc = validate(model, val_loader, val_crit, device)
        print(f"epoch {epoch}: train {tr:.4f} val {vl:.4f} acc {acc:.4f}")


if __name__ == "__main__":
    main()
