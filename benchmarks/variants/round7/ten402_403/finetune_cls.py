import argparse
import math
import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import load_split
from models import build_classifier


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for batch in loader:
            logits = model(batch["input"].to(device))
            correct += (logits.argmax(-1).cpu() == batch["label"]).sum().item()
            total += batch["label"].numel()
    return correct / max(total, 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="resnet18")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--out", default="runs/ft")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_classifier(args.arch, num_classes=10).to(device)
    pretrained = model.state_dict()  # ok
    print(f"{sum(v.numel() for v in pretrained.values()) / 1e6:.2f}M values in state dict")

    train_dl = DataLoader(load_split("train"), batch_size=args.bs, shuffle=True, num_workers=4)
    val_dl = DataLoader(load_split("val"), batch_size=args.bs * 2)

    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    total_steps = args.epochs * len(train_dl)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.5 * (1 + math.cos(math.pi * s / total_steps)))

    best_acc, best_weights = 0.0, None
    for epoch in range(args.epochs):
        model.train()
        for batch in train_dl:
            x, y = batch["input"].to(device), batch["label"].to(device)
            loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
        acc = evaluate(model, val_dl, device)
        print(f"epoch {epoch}: val acc {acc:.4f}")
        if acc > best_acc:
            best_acc = acc
            best_weights = dict(model.state_dict())  # expect: TEN402

    os.makedirs(args.out, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "last.pt"))  # ok
    if best_weights is not None:
        model.load_state_dict(best_weights)
    torch.save(model.state_dict(), os.path.join(args.out, "best.pt"))
    print(f"best val acc {best_acc:.4f}")


if __name__ == "__main__":
    main()
