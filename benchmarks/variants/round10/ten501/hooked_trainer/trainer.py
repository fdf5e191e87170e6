"""A minimal epoch-based trainer with a hook system."""
import logging
import os

import torch
from torch.nn.utils import clip_grad_norm_

from .hooks import EMALossHook, LossHistoryHook
from .meters import MetricLogger


class Trainer:
    def __init__(self, model, optimizer, loader, work_dir, scheduler=None, hooks=(), max_epochs=12,
                 grad_clip=None, log_interval=50, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.loader = loader
        self.scheduler = scheduler
        self.work_dir = work_dir
        self.max_epochs = max_epochs
        self.grad_clip = grad_clip
        self.log_interval = log_interval
        self.device = device
        self.logger = logging.getLogger("trainer")
        self.metrics = MetricLogger()
        self.hooks = sorted([LossHistoryHook(), EMALossHook(), *hooks], key=lambda h: h.priority)
        self.epoch = 0
        self.iter = 0
        os.makedirs(work_dir, exist_ok=True)

    def _call_hooks(self, name, *args):
        for hook in self.hooks:
            getattr(hook, name)(self, *args)

    def _move(self, batch):
        return {k: v.to(self.device, non_blocking=True) if torch.is_tensor(v) else v for k, v in batch.items()}

    def run_step(self, batch):
        outputs = self.model(**self._move(batch))
        loss = sum(v for k, v in outputs.items() if k.startswith("loss_"))
        outputs["loss"] = loss
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = clip_grad_norm_(self.model.parameters(), self.grad_clip or float("inf"))
        self.optimizer.step()
        return outputs, grad_norm

    def train(self):
        self._call_hooks("before_train")
        for self.epoch in range(self.epoch, self.max_epochs):
            self.model.train()
            for batch in self.loader:
                outputs, grad_norm = self.run_step(batch)
                self.metrics.update(grad_norm=grad_norm)  # ok
                self.metrics.update(**{k: v.item() for k, v in outputs.items()})  # ok
                self._call_hooks("after_step", outputs)  # expect: TEN501
                self.iter += 1
            self._call_hooks("after_epoch")
        self._call_hooks("after_train")
