# Multi-task dense prediction (seg + depth + normals), NYUv2-style.
import os
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from models import build_mtl_net          # noqa: F401  (project-local)
from data import build_nyuv2_loaders       # noqa: F401

TASK_WEIGHTS = {"seg": 1.0, "depth": 1.0, "normal": 0.5}


def masked_l1(pred, target):
    mask = (target > 0).float()
    return (torch.abs(pred - target) * mask).sum() / mask.sum().clamp(min=1.0)


def cosine_loss(pred, target):
    pred = F.normalize(pred, dim=1)
    valid = (target.abs().sum(1) > 0).float()
    return ((1 - (pred * target).sum(1)) * valid).sum() / valid.sum().clamp(min=1.0)


def compute_losses(outputs, targets, weights):
    losses = {
        "seg": F.cross_entropy(outputs["seg"], targets["seg"], ignore_index=255),
        "depth": masked_l1(outputs["depth"], targets["depth"]),
        "normal": cosine_loss(outputs["normal"], targets["normal"]),
    }
    total = sum(weights[k] * v for k, v in losses.items())
    return total, losses


def main(out_dir="runs/mtl", epochs=100, lr=1e-4):
    os.makedirs(out_dir, exist_ok=True)
    device = torch.device("cuda")
    model = build_mtl_net(backbone="resnet50", tasks=list(TASK_WEIGHTS)).to(device)
    train_loader, val_loader = build_nyuv2_loaders(batch_size=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.5)

    log = []
    for epoch in range(epochs):
        model.train()
        for it, batch in enumerate(train_loader):
            img = batch["image"].to(device)
            targets = {k: batch[k].to(device) for k in TASK_WEIGHTS}
            outputs = model(img)
            total, losses = compute_losses(outputs, targets, TASK_WEIGHTS)

            optimizer.zero_grad()
            total.backward()
            optimizer.step()

            log.append(losses)  # expect: TEN501
            if it % 50 == 0:
                msg = " ".join(f"{k}={v.item():.3f}" for k, v in losses.items())
                print(f"ep {epoch} it {it} total={total.item():.3f} {msg}")
        scheduler.step()

        recent = log[-len(train_loader):]
        summary = {k: torch.stack([d[k] for d in recent]).mean().item() for k in TASK_WEIGHTS}
        with open(os.path.join(out_dir, "train_summary.jsonl"), "a") as f:
            f.write(json.dumps({"epoch": epoch, **summary}) + "\n")

        model.eval()
        agg = {k: 0.0 for k in TASK_WEIGHTS}
        with torch.no_grad():
            for batch in val_loader:
                img = batch["image"].to(device)
                targets = {k: batch[k].to(device) for k in TASK_WEIGHTS}
                _, losses = compute_losses(model(img), targets, TASK_WEIGHTS)
                for k, v in losses.items():
                    agg[k] += v.item()
        print("val", {k: round(v / len(val_loader), 4) for k, v in agg.items()})
        torch.save(model.state_dict(), os.path.join(out_dir, "last.pth"))


if __name__ == "__main__":
    main()
