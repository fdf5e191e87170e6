import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T


def get_loaders(root, batch_size, workers=4):
    normalize = T.Normalize((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
    train_tf = T.Compose([T.RandomCrop(32, padding=4), T.RandomHorizontalFlip(), T.ToTensor(), normalize])
    test_tf = T.Compose([T.ToTensor(), normalize])
    train_set = torchvision.datasets.CIFAR10(root, train=True, download=True, transform=train_tf)
    test_set = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=test_tf)
    train_loader = torch.utils.data.DataLoader(
        train_set, batch_size=batch_size, shuffle=True, num_workers=workers, pin_memory=True, drop_last=True
    )
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=256, shuffle=False, num_workers=workers)
    return train_loader, test_loader


def train_one_epoch(model, loader, optimizer, scheduler, device, epoch, log_interval=50):
    model.train()
    running_loss = 0.0
    correct = 0
    seen = 0
    t0 = time.time()
    for i, (images, labels) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)

        optimizer.zero_grad(set_to_none=True)
        logits = model(images)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
        loss.backward()
        optimizer.step()
        scheduler.step()

        running_loss += loss * images.size(0)  # expect: TEN501
        correct += logits.argmax(dim=1).eq(labels).sum().item()  # ok
        seen += images.size(0)
        if i % log_interval == 0:
            print(
                f"epoch {epoch} [{i}/{len(loader)}] "
                f"loss {running_loss.item() / seen:.4f} acc {100.0 * correct / seen:.2f} "
                f"({time.time() - t0:.1f}s)"
            )
    return running_loss.item() / seen, correct / seen


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    total_loss = 0.0
    correct = 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        total_loss += F.cross_entropy(logits, labels, reduction="sum")  # ok
        correct += (logits.argmax(1) == labels).sum()  # ok
    n = len(loader.dataset)
    return total_loss.item() / n, correct.item() / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--bs", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, test_loader = get_loaders(args.data, args.bs)
    model = torchvision.models.resnet18(num_classes=10)
    model.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    model.maxpool = nn.Identity()
    model = model.to(device)

    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=len(train_loader)
    )
    best = 0.0
    for epoch in range(args.epochs):
        tr_loss, tr_acc = train_one_epoch(model, train_loader, optimizer, scheduler, device, epoch)
        te_loss, te_acc = evaluate(model, test_loader, device)
        print(f"[{epoch}] train {tr_loss:.3f}/{tr_acc:.3f} test {te_loss:.3f}/{te_acc:.3f}")
        if te_acc > best:
            best = te_acc
            torch.save(model.state_dict(), "resnet18_cifar_best.pt")


if __name__ == "__main__":
    main()
