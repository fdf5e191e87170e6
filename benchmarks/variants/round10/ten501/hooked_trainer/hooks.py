"""Hook objects. Every hook method receives the trainer as its first argument."""
import os
from collections import defaultdict

import torch


class Hook:
    priority = 50

    def before_train(self, trainer):
        pass

    def after_step(self, trainer, outputs):
        pass

    def after_epoch(self, trainer):
        pass

    def after_train(self, trainer):
        pass


class LossHistoryHook(Hook):
    """Records every loss term the model returns so it can be dumped at the end of training."""

    priority = 90

    def __init__(self):
        self.history = defaultdict(list)

    def after_step(self, trainer, outputs):
        for name, value in outputs.items():
            if name.startswith("loss"):
                self.history[name].append(value)

    def after_train(self, trainer):
        dump = {k: torch.stack([v.float() for v in vals]).cpu() for k, vals in self.history.items()}
        torch.save(dump, os.path.join(trainer.work_dir, "loss_history.pt"))


class EMALossHook(Hook):
    def __init__(self, decay=0.99, key="loss"):
        self.decay = decay
        self.key = key
        self.value = None

    def after_step(self, trainer, outputs):
        cur = float(outputs[self.key])
        self.value = cur if self.value is None else self.decay * self.value + (1 - self.decay) * cur  # ok
        if trainer.iter % trainer.log_interval == 0:
            trainer.logger.info("iter %d  ema-loss %.4f  %s", trainer.iter, self.value, trainer.metrics)


class LRSchedulerHook(Hook):
    priority = 10

    def after_step(self, trainer, outputs):
        if trainer.scheduler is not None:
            trainer.scheduler.step()


class CheckpointHook(Hook):
    def __init__(self, every_n_epochs=1):
        self.every = every_n_epochs

    def after_epoch(self, trainer):
        if (trainer.epoch + 1) % self.every == 0:
            torch.save({"model": trainer.model.state_dict(), "optimizer": trainer.optimizer.state_dict(),
                        "epoch": trainer.epoch},
                       os.path.join(trainer.work_dir, f"epoch_{trainer.epoch + 1}.pth"))
