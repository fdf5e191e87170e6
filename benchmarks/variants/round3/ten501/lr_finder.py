"""Leslie Smith style LR range test (exponential sweep, smoothed loss)."""
import math

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn


def find_lr(model, loader, optimizer, criterion, init_value=1e-8, final_value=10.0,
            beta=0.98, device="cuda"):
    num = len(loader) - 1
    mult = (final_value / init_value) ** (1 / num)
    lr = init_value
    for g in optimizer.param_groups:
        g["lr"] = lr
    avg_loss = 0.0
    best_loss = float("inf")
    batch_num = 0
    losses, log_lrs = [], []
    model.train()
    for inputs, labels in loader:
        batch_num += 1
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)

        # exponentially weighted moving average of the loss, bias-corrected
        avg_loss = beta * avg_loss + (1 - beta) * loss  # expect: TEN501
        smoothed_loss = avg_loss / (1 - beta ** batch_num)

        # stop if the loss is exploding
        if batch_num > 1 and smoothed_loss.item() > 4 * best_loss:
            break
        if smoothed_loss.item() < best_loss:
            best_loss = smoothed_loss.item()

        losses.append(smoothed_loss)  # expect: TEN501
        log_lrs.append(math.log10(lr))

        loss.backward()
        optimizer.step()

        lr *= mult
        for g in optimizer.param_groups:
            g["lr"] = lr
    return log_lrs, losses


def plot_lr(log_lrs, losses, path="lr_find.png", skip_start=10, skip_end=5):
    ys = [l.item() for l in losses]
    xs = log_lrs[skip_start:-skip_end]
    ys = ys[skip_start:-skip_end]
    plt.figure()
    plt.plot(xs, ys)
    plt.xlabel("log10 lr")
    plt.ylabel("smoothed loss")
    plt.savefig(path)
    best = xs[min(range(len(ys)), key=ys.__getitem__)]
    return 10 ** (best - 1)


if __name__ == "__main__":
    import torchvision
    import torchvision.transforms as T

    ds = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=T.ToTensor())
    loader = torch.utils.data.DataLoader(ds, batch_size=128, shuffle=True, num_workers=4)
    net = torchvision.models.resnet18(num_classes=10).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9)
    log_lrs, losses = find_lr(net, loader, opt, nn.CrossEntropyLoss())
    print("suggested lr:", plot_lr(log_lrs, losses))
