"""DeepLabV3 fine-tuning on Pascal VOC with scalar tracking."""
import torch
import torch.nn as nn
from torchvision.models.segmentation import deeplabv3_resnet50

from .tracking import flush, log_scalar


def poly_lr(optimizer, base_lr, it, max_it, power=0.9):
    lr = base_lr * (1 - it / max_it) ** power
    for g in optimizer.param_groups:
        g["lr"] = lr
    return lr


@torch.no_grad()
def mean_iou(model, loader, num_classes, device):
    model.eval()
    conf = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)
    for img, mask in loader:
        img, mask = img.to(device), mask.to(device)
        pred = model(img)["out"].argmax(1)
        valid = mask != 255
        conf += torch.bincount(num_classes * mask[valid] + pred[valid],
                               minlength=num_classes ** 2).view(num_classes, num_classes)
    iou = conf.diag().float() / (conf.sum(0) + conf.sum(1) - conf.diag()).clamp(min=1).float()
    return iou.mean().item()


def train(train_loader, val_loader, num_classes=21, epochs=30, base_lr=0.01,
          max_norm=10.0, log_dir="runs/voc", device="cuda"):
    model = deeplabv3_resnet50(weights=None, weights_backbone="DEFAULT", num_classes=num_classes).to(device)
    criterion = nn.CrossEntropyLoss(ignore_index=255)
    optimizer = torch.optim.SGD(model.parameters(), lr=base_lr, momentum=0.9, weight_decay=1e-4)
    max_it = epochs * len(train_loader)
    global_step = 0
    for epoch in range(epochs):
        model.train()
        for img, mask in train_loader:
            img, mask = img.to(device), mask.to(device)
            logits = model(img)["out"]
            loss = criterion(logits, mask)

            optimizer.zero_grad()
            loss.backward()
            grad_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
            lr = poly_lr(optimizer, base_lr, global_step, max_it)

            valid = mask != 255
            pix_acc = (logits.argmax(1)[valid] == mask[valid]).float().mean()
            log_scalar("train/loss", loss, global_step)  # expect: TEN501
            log_scalar("train/pix_acc", pix_acc, global_step)  # ok
            log_scalar("train/grad_norm", grad_norm, global_step)  # ok
            log_scalar("train/lr", lr, global_step)
            global_step += 1

        miou = mean_iou(model, val_loader, num_classes, device)
        log_scalar("val/miou", miou, global_step)
        flush(f"{log_dir}/scalars.jsonl")
        print(f"epoch {epoch}: mIoU {miou:.4f}")
    return model
