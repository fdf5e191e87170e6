"""CIFAR-10 ResNet-18 with SWA; SWA weights are evaluated inside the live model."""
import math

import torch
import torch.nn.functional as F
import torchvision
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn
from torch.utils.data import DataLoader
from torchvision import transforms


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    hit = n = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        hit += (model(x).argmax(1) == y).sum().item()
        n += y.numel()
    return hit / n


def evaluate_swa_in_place(model, swa_model, train_loader, test_loader, device):
    backup = {k: v.to(device) for k, v in model.state_dict().items()}  # expect: TEN402
    model.load_state_dict(swa_model.module.state_dict())  # ok
    update_bn(train_loader, model, device=device)
    acc = accuracy(model, test_loader, device)
    model.load_state_dict(backup)
    return acc


def main(epochs=200, swa_start=160, lr=0.1, swa_lr=0.05, batch_size=128):
    device = torch.device("cuda")
    mean, std = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
    train_tf = transforms.Compose([
        transforms.RandomCrop(32, padding=4),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(mean, std),
    ])
    test_tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize(mean, std)])
    train_set = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=train_tf)
    test_set = torchvision.datasets.CIFAR10("data", train=False, download=True, transform=test_tf)
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=4, pin_memory=True)
    test_loader = DataLoader(test_set, batch_size=512, num_workers=4)

    model = torchvision.models.resnet18(num_classes=10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=swa_start)
    swa_model = AveragedModel(model)
    swa_scheduler = SWALR(optimizer, swa_lr=swa_lr, anneal_epochs=5)

    prev_epoch = None
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.item()
        running /= len(train_loader)

        if not math.isfinite(running) and prev_epoch is not None:
            print(f"epoch {epoch}: loss diverged, rolling back")
            model.load_state_dict(prev_epoch)
            continue
        prev_epoch = {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok

        if epoch >= swa_start:
            swa_model.update_parameters(model)
            swa_scheduler.step()
            if (epoch + 1) % 5 == 0:
                swa_acc = evaluate_swa_in_place(model, swa_model, train_loader, test_loader, device)
                print(f"epoch {epoch}: swa acc {swa_acc:.4f}")
        else:
            scheduler.step()
        print(f"epoch {epoch}: loss {running:.4f} acc {accuracy(model, test_loader, device):.4f}")

    update_bn(train_loader, swa_model, device=device)
    torch.save(swa_model.module.state_dict(), "resnet18_swa.pt")  # ok


if __name__ == "__main__":
    main()
