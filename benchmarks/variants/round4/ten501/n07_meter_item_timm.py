"""Fine-tune a timm ViT; meters are only ever fed Python floats or no-grad tensors."""
import timm
import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0.0
        self.sum = 0.0
        self.count = 0
        self.avg = 0.0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n  # ok
        self.count += n
        self.avg = self.sum / self.count


def train_epoch(model, loader, criterion, optimizer, scaler_dtype=torch.bfloat16):
    losses, top1 = AverageMeter(), AverageMeter()
    model.train()
    for images, target in loader:
        with torch.autocast("cpu", dtype=scaler_dtype):
            output = model(images)
            loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (output.argmax(-1) == target).float().mean().item() * 100
        losses.update(loss.item(), images.size(0))
        top1.update(acc, images.size(0))
    return losses.avg, top1.avg


def validate(model, loader, criterion):
    losses = AverageMeter()
    model.eval()
    with torch.no_grad():
        for images, target in loader:
            output = model(images)
            loss = criterion(output, target)
            losses.update(loss, images.size(0))
    return float(losses.avg)


def main():
    model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=10, img_size=64)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.05)
    train_loader = [(torch.randn(8, 3, 64, 64), torch.randint(0, 10, (8,))) for _ in range(10)]
    val_loader = [(torch.randn(8, 3, 64, 64), torch.randint(0, 10, (8,))) for _ in range(3)]
    for epoch in range(2):
        tl, ta = train_epoch(model, train_loader, criterion, optimizer)
        vl = validate(model, val_loader, criterion)
        print(f"epoch {epoch}: train loss {tl:.4f} acc {ta:.1f} | val loss {vl:.4f}")


if __name__ == "__main__":
    main()
