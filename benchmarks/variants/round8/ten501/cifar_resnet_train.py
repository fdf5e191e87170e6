"""Train a ResNet-18 on CIFAR-10 with SGD + cosine schedule."""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.optim as optim
import torchvision
import torchvision.transforms as T


def build_model(num_classes=10):
    model = torchvision.models.resnet18(num_classes=num_classes)
    # CIFAR images are 32x32, so drop the aggressive stem downsampling
    model.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    model.maxpool = nn.Identity()
    return model


def get_loaders(root, batch_size, workers):
    mean, std = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
    train_tf = T.Compose([
        T.RandomCrop(32, padding=4),
        T.RandomHorizontalFlip(),
        T.ToTensor(),
        T.Normalize(mean, std),
    ])
    test_tf = T.Compose([T.ToTensor(), T.Normalize(mean, std)])
    train_set = torchvision.datasets.CIFAR10(root, train=True, download=True, transform=train_tf)
    test_set = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=test_tf)
    train_loader = torch.utils.data.DataLoader(
        train_set, batch_size=batch_size, shuffle=True, num_workers=workers,
        pin_memory=True, drop_last=True,
    )
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=512, shuffle=False, num_workers=workers)
    return train_loader, test_loader


@torch.no_grad()
def evaluate(model, loader, criterion, device):
    model.eval()
    val_loss = torch.zeros((), device=device)
    correct = 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        logits = model(images)
        val_loss += criterion(logits, targets) * images.size(0)  # ok
        correct += (logits.argmax(dim=1) == targets).sum()  # ok
    n = len(loader.dataset)
    return val_loss.item() / n, 100.0 * correct.item() / n


def train_one_epoch(model, loader, criterion, optimizer, device, epoch, print_freq=100):
    model.train()
    running_loss = 0.0
    seen = 0
    tic = time.time()
    for i, (images, targets) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)

        outputs = model(images)
        loss = criterion(outputs, targets)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        running_loss += loss  # expect: TEN501
        seen += images.size(0)  # ok
        if i % print_freq == print_freq - 1:
            throughput = seen / (time.time() - tic)
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / print_freq:.3f}  ({throughput:.0f} img/s)")
            running_loss = 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--out", default="checkpoints")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, test_loader = get_loaders(args.data, args.batch_size, args.workers)
    model = build_model().to(device)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4, nesterov=True)
    scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    os.makedirs(args.out, exist_ok=True)
    best_acc = 0.0
    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, criterion, optimizer, device, epoch)
        val_loss, val_acc = evaluate(model, test_loader, criterion, device)
        scheduler.step()
        print(f"epoch {epoch + 1}: val_loss={val_loss:.4f} val_acc={val_acc:.2f}")
        if val_acc > best_acc:
            best_acc = val_acc
            torch.save(model.state_dict(), os.path.join(args.out, "resnet18_best.pth"))
    print(f"best accuracy: {best_acc:.2f}")


if __name__ == "__main__":
    main()
