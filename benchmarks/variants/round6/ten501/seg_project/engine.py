import torch
import torch.nn.functional as F

from . import meters
from .meters import AverageMeter, ConfusionMatrix


def criterion(inputs, target):
    losses = {}
    for name, x in inputs.items():
        losses[name] = F.cross_entropy(x, target, ignore_index=255)
    if len(losses) == 1:
        return losses["out"]
    return losses["out"] + 0.5 * losses["aux"]


def train_one_epoch(model, optimizer, data_loader, lr_scheduler, epoch, print_freq=2):
    model.train()
    metric_logger = meters.MetricLogger(delimiter="  ")
    loss_meter = AverageMeter("loss", ":.4f")
    header = f"Epoch: [{epoch}]"
    for image, target in metric_logger.log_every(data_loader, print_freq, header):
        output = model(image)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        metric_logger.update(loss=loss, lr=optimizer.param_groups[0]["lr"])  # ok
        loss_meter.update(loss, image.size(0))  # expect: TEN501
    return {"loss": float(loss_meter.avg), "lr": optimizer.param_groups[0]["lr"]}


def evaluate(model, data_loader, num_classes):
    model.eval()
    confmat = ConfusionMatrix(num_classes)
    val_loss = AverageMeter("val_loss")
    for image, target in data_loader:
        output = model(image)
        val_loss.update(criterion(output, target), image.size(0))  # expect: TEN501
        confmat.update(target.flatten(), output["out"].argmax(1).flatten())  # ok
    return confmat, float(val_loss.avg)


@torch.inference_mode()
def evaluate_fast(model, data_loader, num_classes):
    model.eval()
    confmat = ConfusionMatrix(num_classes)
    val_loss = AverageMeter("val_loss")
    for image, target in data_loader:
        output = model(image)
        val_loss.update(criterion(output, target), image.size(0))  # ok
        confmat.update(target.flatten(), output["out"].argmax(1).flatten())
    return confmat, float(val_loss.avg)
