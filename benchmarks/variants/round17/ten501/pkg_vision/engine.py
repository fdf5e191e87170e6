"""Training and evaluation loops."""
import torch

from .metrics import MetricLogger, SmoothedValue


def train_step(model, criterion, optimizer, images, target):
    output = model(images)
    loss = criterion(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss, output


def accuracy(output, target):
    return (output.argmax(1) == target).float().mean() * 100.0


def train_one_epoch(model, criterion, optimizer, loader, tracker):
    model.train()
    metric_logger = MetricLogger()
    loss_meter = SmoothedValue(window_size=3)
    step_losses = []
    for images, target in loader:
        loss, output = train_step(model, criterion, optimizer, images, target)
        step_losses.append(loss)  # expect: TEN501
        metric_logger.update(loss=loss, lr=optimizer.param_groups[0]["lr"])  # ok
        loss_meter.update(loss, n=images.shape[0])  # expect: TEN501
        tracker.update("acc", accuracy(output, target))  # ok
        tracker.update("loss_value", loss.item())  # ok
    stats = {"loss": metric_logger.meters["loss"].global_avg, "meter_avg": loss_meter.global_avg}
    return stats, step_losses


@torch.inference_mode()
def evaluate(model, criterion, loader):
    model.eval()
    outputs, losses = [], []
    for images, target in loader:
        output = model(images)
        outputs.append(output)  # ok
        losses.append(criterion(output, target))  # ok
    return torch.cat(outputs), torch.stack(losses).mean()
