import torch
import torch.nn.functional as F

from .metrics import MetricTracker, ScalarTracker


def train_one_epoch(model, optimizer, loader, scalar_tracker):
    tracker = ScalarTracker() if scalar_tracker else MetricTracker()
    model.train()
    last_loss = None
    for x, y in loader:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == y).float().mean()
        if scalar_tracker:
            tracker.update("loss", loss, x.size(0))  # ok
        else:
            tracker.update("loss", loss, x.size(0))  # expect: TEN501
        tracker.update("acc", acc, x.size(0))  # ok
        last_loss = loss
    return tracker, last_loss


def evaluate(model, loader):
    tracker = MetricTracker()
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            tracker.update("val_loss", F.cross_entropy(logits, y), x.size(0))  # ok
            tracker.update("val_acc", (logits.argmax(1) == y).float().mean(), x.size(0))  # ok
    return tracker


def evaluate_with_grad(model, loader):
    """Used for a 'gradient-sensitivity' report, but the tracker only needs numbers."""
    tracker = MetricTracker()
    for x, y in loader:
        logits = model(x)
        tracker.update("val_loss", F.cross_entropy(logits, y), x.size(0))  # expect: TEN501
    return tracker
