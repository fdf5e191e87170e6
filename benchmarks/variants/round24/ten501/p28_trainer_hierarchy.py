"""Trainer class hierarchy: the base class keeps metrics, subclasses decide what they log."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BaseTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.metrics = defaultdict(list)

    def _log(self, key, value):
        self.metrics[key].append(value)

    def train_step(self, batch):
        raise NotImplementedError

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            for batch in loader:
                self.train_step(batch)
        return self.metrics


class ClassifierTrainer(BaseTrainer):
    def train_step(self, batch):
        x, y = batch
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self._log("loss", loss)  # expect: TEN501
        self._log("acc", (logits.argmax(1) == y).float().mean())  # ok
        return loss


class SafeLogMixin:
    def _log(self, key, value):
        if torch.is_tensor(value):
            value = value.detach().cpu().item()
        super()._log(key, value)


class SafeClassifierTrainer(SafeLogMixin, BaseTrainer):
    def train_step(self, batch):
        x, y = batch
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self._log("loss", loss)  # ok
        self._log("margin", (logits.max(1).values - logits.min(1).values).mean())  # ok
        return loss


loader = [(torch.randn(6, 7), torch.randint(0, 3, (6,))) for _ in range(3)]
for cls in (ClassifierTrainer, SafeClassifierTrainer):
    m = cls(nn.Sequential(nn.Linear(7, 14), nn.ReLU(), nn.Linear(14, 3))).fit(loader, 2)
    print(cls.__name__, {k: len(v) for k, v in m.items()})
