"""Trimmed-down version of a timm-style train/validate script."""
import time
from collections import OrderedDict

import torch
import torch.nn as nn
import timm
from timm.data import create_dataset, create_loader, resolve_data_config
from timm.loss import LabelSmoothingCrossEntropy
from timm.optim import create_optimizer_v2
from timm.scheduler import create_scheduler_v2
from timm.utils import accuracy


class AverageMeter:
    """Computes and stores the average and current value"""

    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def train_one_epoch(epoch, model, loader, optimizer, loss_fn, lr_scheduler=None, log_interval=50):
    batch_time_m = AverageMeter()
    data_time_m = AverageMeter()
    losses_m = AverageMeter()
    top1_m = AverageMeter()

    model.train()
    end = time.time()
    num_batches_per_epoch = len(loader)
    num_updates = epoch * num_batches_per_epoch
    for batch_idx, (input, target) in enumerate(loader):
        last_batch = batch_idx == num_batches_per_epoch - 1
        data_time_m.update(time.time() - end)
        input, target = input.cuda(), target.cuda()

        output = model(input)
        loss = loss_fn(output, target)

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()

        losses_m.update(loss, input.size(0))  # expect: TEN501
        acc1, _ = accuracy(output.detach(), target, topk=(1, 5))
        top1_m.update(acc1.item(), input.size(0))  # ok

        num_updates += 1
        batch_time_m.update(time.time() - end)
        if last_batch or batch_idx % log_interval == 0:
            lr = optimizer.param_groups[0]["lr"]
            print(
                f"Train: {epoch} [{batch_idx:>4d}/{num_batches_per_epoch}] "
                f"Loss: {float(losses_m.val):.4f} ({float(losses_m.avg):.4f}) "
                f"Acc@1: {top1_m.avg:.2f} LR: {lr:.3e} Time: {batch_time_m.avg:.3f}s"
            )
        if lr_scheduler is not None:
            lr_scheduler.step_update(num_updates=num_updates)
        end = time.time()

    return OrderedDict([("loss", float(losses_m.avg))])


def validate(model, loader, loss_fn):
    losses_m = AverageMeter()
    top1_m = AverageMeter()
    model.eval()
    with torch.no_grad():
        for input, target in loader:
            input, target = input.cuda(), target.cuda()
            output = model(input)
            loss = loss_fn(output, target)
            acc1, _ = accuracy(output, target, topk=(1, 5))
            losses_m.update(loss, input.size(0))  # ok
            top1_m.update(acc1.item(), output.size(0))
    return OrderedDict([("loss", float(losses_m.avg)), ("top1", top1_m.avg)])


def main():
    model = timm.create_model("resnet18", pretrained=False, num_classes=100).cuda()
    data_config = resolve_data_config({}, model=model)
    ds_train = create_dataset("", root="data/cifar100", split="train", is_training=True)
    ds_val = create_dataset("", root="data/cifar100", split="validation")
    loader_train = create_loader(ds_train, input_size=data_config["input_size"], batch_size=128, is_training=True)
    loader_val = create_loader(ds_val, input_size=data_config["input_size"], batch_size=256)

    optimizer = create_optimizer_v2(model, opt="adamw", lr=1e-3, weight_decay=0.05)
    lr_scheduler, num_epochs = create_scheduler_v2(optimizer, sched="cosine", num_epochs=30,
                                                   updates_per_epoch=len(loader_train))
    train_loss_fn = LabelSmoothingCrossEntropy(smoothing=0.1).cuda()
    val_loss_fn = nn.CrossEntropyLoss().cuda()

    for epoch in range(num_epochs):
        train_metrics = train_one_epoch(epoch, model, loader_train, optimizer, train_loss_fn, lr_scheduler)
        eval_metrics = validate(model, loader_val, val_loss_fn)
        lr_scheduler.step(epoch + 1, eval_metrics["top1"])
        print(epoch, train_metrics, eval_metrics)


if __name__ == "__main__":
    main()
