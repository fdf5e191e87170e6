"""Entry point: python -m pkg_vision.main"""
import torch
import torch.nn as nn

from .data import make_loaders
from .engine import evaluate, train_one_epoch
from .metrics import MetricTracker

torch.manual_seed(0)
torch.set_num_threads(1)


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
        nn.Flatten(), nn.Linear(16, 4),
    )


def main():
    train_loader, val_loader = make_loaders()
    model = build_model()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    tracker = MetricTracker()
    history, all_step_losses, val_logits = [], [], []
    for epoch in range(2):
        stats, step_losses = train_one_epoch(model, criterion, optimizer, train_loader, tracker)
        history.append(stats)  # ok
        all_step_losses.extend(step_losses)  # expect: TEN501
        logits, val_loss = evaluate(model, criterion, val_loader)
        val_logits.append(logits)  # ok
        tracker.update("val_loss", val_loss)  # ok
        print(f"epoch {epoch}: train {stats['loss']:.4f} val {val_loss.item():.4f} acc {tracker.mean('acc'):.1f}")
    print(len(all_step_losses), len(val_logits))


if __name__ == "__main__":
    main()
