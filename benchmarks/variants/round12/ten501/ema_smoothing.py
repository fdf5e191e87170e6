"""Learning-rate range test and loss smoothing utilities."""
import math

import torch
import torch.nn.functional as F


class SmoothedLoss:
    """Debiased exponential moving average of the training loss."""

    def __init__(self, beta=0.98):
        self.beta = beta
        self.reset()

    def reset(self):
        self.count, self.mov_avg = 0, 0.0

    def accumulate(self, loss):
        self.count += 1
        self.mov_avg = self.beta * self.mov_avg + (1 - self.beta) * loss

    @property
    def value(self):
        return self.mov_avg / (1 - self.beta ** self.count)


def find_lr(model, loader, optimizer, init_value=1e-8, final_value=10.0, beta=0.98):
    num = len(loader) - 1
    mult = (final_value / init_value) ** (1 / num)
    lr = init_value
    optimizer.param_groups[0]["lr"] = lr
    avg_loss = 0.0
    best_loss = float("inf")
    losses, log_lrs = [], []
    for batch_num, (x, y) in enumerate(loader, start=1):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        avg_loss = beta * avg_loss + (1 - beta) * loss  # expect: TEN501
        smoothed = avg_loss / (1 - beta ** batch_num)
        if batch_num > 1 and smoothed > 4 * best_loss:
            break
        if smoothed < best_loss or batch_num == 1:
            best_loss = smoothed.item()
        losses.append(smoothed.item())  # ok
        log_lrs.append(math.log10(lr))  # ok
        loss.backward()
        optimizer.step()
        lr *= mult
        optimizer.param_groups[0]["lr"] = lr
    return log_lrs, losses


def fit_one_cycle(model, loader, optimizer, scheduler, epochs):
    tracker = SmoothedLoss()
    for epoch in range(epochs):
        tracker.reset()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            tracker.accumulate(loss.detach())  # ok
        print(f"epoch {epoch} smooth loss {float(tracker.value):.4f}")


def fit_with_progress(model, loader, optimizer, epochs, bar=None):
    tracker = SmoothedLoss(beta=0.9)
    ema = None
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            tracker.accumulate(loss)  # expect: TEN501
            ema = loss.item() if ema is None else 0.9 * ema + 0.1 * loss.item()  # ok
            if bar is not None and step % 20 == 0:
                bar.set_postfix(loss=f"{ema:.3f}")
    return tracker.value
