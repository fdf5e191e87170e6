"""train_one_epoch / evaluate in the style of the detection references."""
import torch
import torch.nn.functional as F

from . import utils
from .metrics import MetricLogger, NaiveMetricLogger


def criterion(out, target):
    return {"loss_cls": F.cross_entropy(out[:, :3], target), "loss_box": F.smooth_l1_loss(out[:, 3:], torch.zeros_like(out[:, 3:]))}


def train_one_epoch(model, optimizer, loader, epoch, logger, naive_logger, epoch_store):
    epoch_sum = 0.0
    for images, targets in loader:
        out = model(images)
        loss_dict = criterion(out, targets)
        losses = sum(loss for loss in loss_dict.values())
        loss_dict_reduced = utils.reduce_dict(loss_dict)
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        logger.update(loss=losses, **loss_dict)  # ok
        naive_logger.update(loss=losses, **loss_dict_reduced)  # expect: TEN501
        naive_logger.update(lr=optimizer.param_groups[0]["lr"], **loss_dict_reduced)  # ok
        utils.register("loss_cls", loss_dict["loss_cls"])  # expect: TEN501
        utils.register_scalar("loss_box", loss_dict["loss_box"])  # ok
        epoch_sum = epoch_sum + losses
    utils.store_epoch(epoch_store, epoch=epoch, loss=epoch_sum)  # expect: TEN501
    utils.epoch_losses().append(epoch_sum.item())  # ok
    return epoch_sum


def evaluate(model, loader, results):
    model.eval()
    with torch.no_grad():
        for images, targets in loader:
            results.append(model(images).softmax(-1))  # ok
    model.train()
