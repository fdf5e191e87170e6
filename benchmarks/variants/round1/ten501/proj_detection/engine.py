import math
import sys

import torch

import utils


def train_one_epoch(model, criterion, optimizer, data_loader, epoch, print_freq=2):
    model.train()
    metric_logger = utils.MetricLogger()
    history = utils.LossHistory()
    for i, (images, targets) in enumerate(data_loader):
        outputs = model(images)
        loss_dict = criterion(outputs, targets)
        losses = sum(loss for loss in loss_dict.values())
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            sys.exit(1)
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        metric_logger.update(loss=losses, **loss_dict)  # ok
        history.update(losses)  # expect: TEN501
        if i % print_freq == 0:
            print(f"Epoch [{epoch}] [{i}] {metric_logger}")
    return history.mean()


@torch.inference_mode()
def evaluate(model, data_loader):
    model.eval()
    results = []
    scores = 0.0
    for images, _ in data_loader:
        outputs = model(images)
        results.append(outputs)  # ok
        scores += outputs["scores"].sum()  # ok
    return results, scores
