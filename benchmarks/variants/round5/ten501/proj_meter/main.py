"""Entry point: python -m proj_meter.main"""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from . import meters
from .engine import evaluate, train_one_epoch


def build_model(n_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, n_classes),
    )


def main(epochs=2):
    torch.manual_seed(0)
    x = torch.randn(320, 3, 16, 16)
    y = torch.randint(0, 10, (320,))
    train_loader = DataLoader(TensorDataset(x[:256], y[:256]), batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[256:], y[256:]), batch_size=64)

    model = build_model()
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)

    epoch_time = meters.AverageMeter("EpochTime", ":.2f")
    history = []
    for epoch in range(epochs):
        t0 = time.time()
        tr_loss, tr_acc, extra = train_one_epoch(model, train_loader, criterion, optimizer, epoch)
        va_loss, va_acc = evaluate(model, val_loader, criterion)
        scheduler.step()
        history.append((tr_loss, tr_acc, va_loss, va_acc))  # ok
        epoch_time.update(time.time() - t0)
        print(f"epoch {epoch}: train {tr_loss:.4f}/{tr_acc:.1f} val {va_loss:.4f}/{va_acc:.1f} "
              f"lr {extra['lr']:.4f} {epoch_time}")
    return history


if __name__ == "__main__":
    main()
