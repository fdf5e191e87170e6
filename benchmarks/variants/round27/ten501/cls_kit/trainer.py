"""Trainer with callbacks and meters."""
import torch
import torch.nn.functional as F

from .meters import SumMeter, ScalarSumMeter, ConfusionMeter


class Trainer:
    def __init__(self, model, callbacks=(), lr=0.1):
        self.model = model
        self.callbacks = list(callbacks)
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.loss_meter = SumMeter()
        self.loss_meter_ok = ScalarSumMeter()
        self.margin_meter = SumMeter()
        self.confusion = ConfusionMeter(3)
        self.epoch_logits = []

    def _margin(self, logits, y):
        true = logits.gather(1, y[:, None]).squeeze(1)
        other = logits.masked_fill(F.one_hot(y, logits.size(1)).bool(), -1e9).max(1).values
        return (true - other).mean()

    def training_step(self, x, y):
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return {"loss": loss, "logits": logits, "margin": self._margin(logits, y)}

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for x, y in loader:
                out = self.training_step(x, y)
                self.loss_meter.update(out["loss"], x.size(0))  # expect: TEN501
                self.loss_meter_ok.update(out["loss"], x.size(0))  # ok
                self.margin_meter.update(out["margin"].detach(), x.size(0))  # ok
                self.confusion.add(out["logits"], y)  # ok
                for cb in self.callbacks:
                    cb.on_batch_end(self, out)  # expect: TEN501
                self.epoch_logits.append(out["logits"])  # expect: TEN501
            self.epoch_logits = []
        return self

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        meter = SumMeter()
        for x, y in loader:
            meter.update(F.cross_entropy(self.model(x), y), x.size(0))  # ok
        return meter.avg
