"""CIFAR-10 ResNet training that keeps the best model+optimizer for later resume."""
import copy
import os

import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T


def get_loaders(root="./data", bs=128):
    mean, std = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
    train_tf = T.Compose([T.RandomCrop(32, padding=4), T.RandomHorizontalFlip(), T.ToTensor(), T.Normalize(mean, std)])
    test_tf = T.Compose([T.ToTensor(), T.Normalize(mean, std)])
    train = torchvision.datasets.CIFAR10(root, train=True, download=True, transform=train_tf)
    test = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=test_tf)
    return (torch.utils.data.DataLoader(train, batch_size=bs, shuffle=True, num_workers=4),
            torch.utils.data.DataLoader(test, batch_size=256, num_workers=4))


def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    return 100.0 * correct / total


def main(epochs=60, out_dir="checkpoints"):
    os.makedirs(out_dir, exist_ok=True)
    device = "cuda"
    train_loader, test_loader = get_loaders()
    model = torchvision.models.resnet18(num_classes=10)
    model.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
    model.maxpool = nn.Identity()
    model.to(device)

    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)

    best_acc, best_epoch = 0.0, -1
    best_model_state, best_opt_state = None, None
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        scheduler.step()

        acc = accuracy(model, test_loader, device)
        print(f"epoch {epoch:3d}  acc {acc:.2f}  lr {scheduler.get_last_lr()[0]:.5f}")
        if acc > best_acc:
            best_acc, best_epoch = acc, epoch
            best_model_state = copy.deepcopy(model.state_dict())
            best_opt_state = optimizer.state_dict()  # expect: TEN402

    torch.save(
        {
            "epoch": best_epoch,
            "acc": best_acc,
            "model": best_model_state,
            "optimizer": best_opt_state,
        },
        os.path.join(out_dir, "best.pth"),
    )
    print(f"best acc {best_acc:.2f} at epoch {best_epoch}")


if __name__ == "__main__":
    main()
