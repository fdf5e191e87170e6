"""ViT fine-tuning with on-disk best/last checkpoints (no in-memory snapshots)."""
import argparse
import os

import timm
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def build_loaders(root, img_size=224, bs=64):
    norm = transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))
    train_tf = transforms.Compose([transforms.RandomResizedCrop(img_size), transforms.RandomHorizontalFlip(),
                                   transforms.ToTensor(), norm])
    val_tf = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(img_size), transforms.ToTensor(), norm])
    train = datasets.ImageFolder(os.path.join(root, "train"), train_tf)
    val = datasets.ImageFolder(os.path.join(root, "val"), val_tf)
    return DataLoader(train, bs, shuffle=True, num_workers=8), DataLoader(val, bs, num_workers=8), len(train.classes)


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(-1) == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default="runs/vit")
    ap.add_argument("--epochs", type=int, default=20)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    device = "cuda"
    train_loader, val_loader, n_cls = build_loaders(args.data)
    model = timm.create_model("vit_small_patch16_224", pretrained=True, num_classes=n_cls).to(device)

    init_sd = model.state_dict()
    n_params = sum(v.numel() for v in init_sd.values())
    print(f"{len(init_sd)} tensors, {n_params / 1e6:.1f}M params")
    torch.save(init_sd, os.path.join(args.out, "init.pt"))

    opt = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-5, total_steps=args.epochs * len(train_loader))
    crit = nn.CrossEntropyLoss(label_smoothing=0.1)
    best = 0.0
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        acc = validate(model, val_loader, device)
        print(f"epoch {epoch}: val acc {acc:.4f}")
        if acc > best:
            best = acc
            torch.save(model.state_dict(), os.path.join(args.out, "best.pt"))
        state = {"epoch": epoch, "model": model.state_dict(), "optimizer": opt.state_dict(),
                 "scheduler": sched.state_dict(), "best": best}
        torch.save(state, os.path.join(args.out, "last.pt"))

    final_sd = model.state_dict()
    torch.save(final_sd, os.path.join(args.out, "final.pt"))
    model.load_state_dict(torch.load(os.path.join(args.out, "best.pt"), map_location=device))
    print(f"best val acc {best:.4f}, reloaded for test: {validate(model, val_loader, device):.4f}")


if __name__ == "__main__":
    main()
