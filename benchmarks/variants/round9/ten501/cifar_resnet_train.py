"""Train a ResNet-18 on CIFAR-10 with a one-cycle schedule."""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader

MEAN = (0.4914, 0.4822, 0.4465)
STD = (0.2470, 0.2435, 0.2616)


def get_loaders(root, batch_size, workers=4):
    norm = T.Normalize(MEAN, STD)
    train_tf = T.Compose([T.RandomCrop(32, padding=4), T.RandomHorizontalFlip(), T.ToTensor(), norm])
    test_tf = T.Compose([T.ToTensor(), norm])
    train_set = torchvision.datasets.CIFAR10(root, train=True, download=True, transform=train_tf)
    test_set = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=test_tf)
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True,
                              num_workers=workers, pin_memory=True, drop_last=True)
    test_loader = DataLoader(test_set, batch_size=512, shuffle=False, num_workers=workers)
    return train_loader, test_loader


def build_model(num_classes=10):
    model = torchvision.models.resnet18(num_classes=num_classes)
    # CIFAR images are small: replace the stem
    model.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    model.maxpool = nn.Identity()
    return model


def train_one_epoch(model, loader, optimizer, scheduler, device, epoch, weight_norms, log_every=50):
    model.train()
    running_loss = 0.0
    correct = 0
    seen = 0
    t0 = time.time()
    for i, (images, targets) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)

        outputs = model(images)
        loss = F.cross_entropy(outputs, targets, label_smoothing=0.1)

        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        scheduler.step()

        running_loss += loss * images.size(0)  # expect: TEN501
        preds = outputs.max(1)[1]
        correct += (preds == targets).sum().item()  # ok
        seen += images.size(0)

        if i % log_every == 0:
            weight_norms.append(model.fc.weight.norm())  # expect: TEN501
            print(f"epoch {epoch:3d} it {i:4d} | loss {running_loss.item() / seen:.4f} "
                  f"| acc {correct / seen:.3f} | {time.time() - t0:.1f}s")
    return running_loss.item() / seen, correct / seen


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    total_loss = 0.0
    correct = 0
    n = 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        logits = model(images)
        total_loss += F.cross_entropy(logits, targets, reduction="sum")  # ok
        correct += (logits.argmax(1) == targets).sum()  # ok
        n += targets.numel()
    return total_loss.item() / n, correct.item() / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.2)
    args = parser.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    train_loader, test_loader = get_loaders(args.data, args.batch_size)
    model = build_model().to(device).to(memory_format=torch.channels_last)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9,
                                weight_decay=5e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=len(train_loader))

    weight_norms = []
    best = 0.0
    for epoch in range(args.epochs):
        tr_loss, tr_acc = train_one_epoch(model, train_loader, optimizer, scheduler,
                                          device, epoch, weight_norms)
        te_loss, te_acc = evaluate(model, test_loader, device)
        print(f"[{epoch}] train {tr_loss:.4f}/{tr_acc:.3f}  test {te_loss:.4f}/{te_acc:.3f}")
        if te_acc > best:
            best = te_acc
            torch.save(model.state_dict(), "resnet18_cifar10.pt")
    print("best test acc", best)
    print("fc norm trajectory", [round(float(w), 3) for w in weight_norms[::10]])


if __name__ == "__main__":
    main()
