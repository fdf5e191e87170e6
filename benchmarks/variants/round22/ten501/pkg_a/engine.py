"""Training / evaluation loops; backward happens in _step()."""
import torch
from torch import nn


def _step(model, opt, x, y):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss


def train_one_epoch(model, loader, opt, meter, hist, scalar_hist):
    for x, y in loader:
        loss = _step(model, opt, x, y)
        meter.add(loss, len(x))  # either: TEN501
        hist.push(loss=loss, lr=opt.param_groups[0]["lr"])  # either: TEN501
        scalar_hist.push(loss=loss)  # ok
    return meter


def evaluate(model, loader, meter):
    for x, y in loader:
        meter.add(nn.functional.mse_loss(model(x), y), len(x))  # either: TEN501
    return meter.mean


@torch.no_grad()
def evaluate_safe(model, loader, meter):
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        meter.add(loss, len(x))  # ok
    return meter.mean
