"""Trainer for DeepFM / DCN style click-through-rate models."""
import torch
import torch.nn.functional as F

from .callbacks import LossCurve, ProgressLogger
from .meters import AUCMeter, AverageMeter


class CTRTrainer:
    def __init__(self, model, optimizer, device="cuda", l2_reg=1e-6, callbacks=None):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device
        self.l2 = l2_reg
        self.callbacks = list(callbacks) if callbacks is not None else [LossCurve(), ProgressLogger()]
        self.global_step = 0
        self.stop_training = False

    def _to_device(self, dense, sparse, label):
        return dense.to(self.device), sparse.to(self.device), label.to(self.device)

    def train_epoch(self, loader, epoch):
        self.model.train()
        loss_meter = AverageMeter("loss")
        bce_meter = AverageMeter("bce")
        auc = AUCMeter()
        for step, batch in enumerate(loader):
            dense, sparse, label = self._to_device(*batch)
            logits = self.model(dense, sparse).squeeze(-1)
            bce = F.binary_cross_entropy_with_logits(logits, label.float())
            reg = self.l2 * self.model.embedding_l2()
            loss = bce + reg

            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.global_step += 1

            loss_meter.update(loss, n=label.size(0))  # expect: TEN501
            bce_meter.update(bce.item(), n=label.size(0))  # ok
            auc.add(torch.sigmoid(logits).detach().cpu(), label.cpu())  # ok
            for cb in self.callbacks:
                cb.on_batch_end(self, step, bce)  # expect: TEN501

        train_auc, train_logloss = auc.value()
        return {"loss": float(loss_meter.avg), "bce": bce_meter.avg,
                "auc": train_auc, "logloss": train_logloss}

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        meter = AverageMeter("val_loss")
        auc = AUCMeter()
        for batch in loader:
            dense, sparse, label = self._to_device(*batch)
            logits = self.model(dense, sparse).squeeze(-1)
            meter.update(F.binary_cross_entropy_with_logits(logits, label.float()), n=label.size(0))  # ok
            auc.add(torch.sigmoid(logits).cpu(), label.cpu())  # ok
        val_auc, val_logloss = auc.value()
        return {"val_loss": float(meter.avg), "val_auc": val_auc, "val_logloss": val_logloss}

    def fit(self, train_loader, val_loader, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        history = []
        for epoch in range(epochs):
            metrics = self.train_epoch(train_loader, epoch)
            metrics.update(self.evaluate(val_loader))
            history.append(metrics)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, metrics)
            if self.stop_training:
                break
        return history
