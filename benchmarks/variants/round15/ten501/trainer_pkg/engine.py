"""Training engine: several layers of helpers between the loop and the stored values."""
import torch
import torch.nn.functional as F

from .meters import AverageMeter, SafeMeter


class Engine:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.loss_meter = AverageMeter()
        self.acc_meter = AverageMeter()
        self.safe_meter = SafeMeter()
        self.step_outputs = []
        self.global_step = 0

    def _compute_loss(self, logits, y):
        return {"loss": F.cross_entropy(logits, y), "logits": logits}

    def _shared_step(self, batch):
        x, y = batch
        out = self._compute_loss(self.model(x), y)
        out["correct"] = (out["logits"].argmax(1) == y).sum().item()
        return out

    def _optimize(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def train_epoch(self, loader):
        self.model.train()
        self.loss_meter.reset()
        for batch in loader:
            out = self._shared_step(batch)
            self._optimize(out["loss"])
            bs = len(batch[1])
            self.loss_meter.update(out["loss"], bs)  # expect: TEN501
            self.acc_meter.update(out["correct"] / bs, bs)  # ok
            self.safe_meter.update(out["loss"], bs)  # ok
            self.step_outputs.append(out)  # expect: TEN501
            self.callbacks.on_batch_end(self.global_step, {"loss": out["loss"].item(), "bs": bs})  # ok
            self.global_step += 1  # ok
        return self.loss_meter.avg

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        meter = AverageMeter()
        for batch in loader:
            out = self._shared_step(batch)
            meter.update(out["loss"], len(batch[1]))  # ok
        return meter.avg
