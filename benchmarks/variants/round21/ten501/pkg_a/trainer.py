"""Trainer that wires model, losses, metric trackers and the global scalar log together."""
import torch

from .logging_utils import log_last, log_scalars
from .losses import FocalLoss, compute_losses
from .metrics import MetricTracker, ScalarTracker, accuracy, confusion_matrix


class Trainer:
    def __init__(self, model, lr=5e-3, num_classes=3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.num_classes = num_classes
        self.tracker = MetricTracker()
        self.safe = ScalarTracker()
        self.val_tracker = ScalarTracker()
        self.focal = FocalLoss()
        self.val_logits = []
        self.global_step = 0

    def train_epoch(self, batches, epoch):
        self.model.train()
        self.tracker.reset()
        for step, batch in enumerate(batches):
            terms, logits = compute_losses(self.model, batch)
            focal = self.focal(logits, batch[1])
            loss = terms["total"] + 0.5 * focal
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.global_step += 1
            n = len(batch[1])

            self.tracker.update("loss", loss, n)  # expect: TEN501
            self.tracker.update("acc", accuracy(logits, batch[1]), n)  # ok
            self.safe.update("ce", terms["ce"], n)
            self.safe.update("l2", terms["l2"].detach(), n)  # ok
            self.safe.update("focal", focal.item(), n)  # ok
            log_scalars(self.global_step, **terms)  # expect: TEN501
            log_scalars(self.global_step, lr=self.opt.param_groups[0]["lr"], epoch=epoch)  # ok
            log_last("focal", focal)  # either
        return self.tracker.avg("loss")

    def validate(self, batches):
        self.model.eval()
        cm = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)
        for batch in batches:
            terms, logits = compute_losses(self.model, batch)
            self.val_logits.append(logits)  # expect: TEN501
            self.val_tracker.update("val_loss", terms["total"].item(), len(batch[1]))  # ok
            cm += confusion_matrix(logits, batch[1], self.num_classes)  # ok
        self.model.train()
        return self.val_tracker.avg("val_loss"), cm
