import logging
from typing import Dict, Optional

import pytorch_lightning as pl
import torch
from pytorch_lightning.callbacks import Callback

logger = logging.getLogger(__name__)


class KeepBestInMemory(Callback):
    """Remembers the best weights seen at validation time and loads them when fit() ends.

    Handy for small models where writing checkpoints to disk every epoch is just noise.
    """

    def __init__(self, monitor: str = "val/acc", mode: str = "max"):
        super().__init__()
        self.monitor = monitor
        self.mode = mode
        self.best_score: Optional[float] = None
        self.best_state: Optional[Dict[str, torch.Tensor]] = None
        self.best_epoch = -1

    def _is_better(self, current: float) -> bool:
        if self.best_score is None:
            return True
        return current > self.best_score if self.mode == "max" else current < self.best_score

    def on_validation_epoch_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        if trainer.sanity_checking:
            return
        current = trainer.callback_metrics.get(self.monitor)
        if current is None:
            return
        current = float(current)
        if self._is_better(current):
            self.best_score = current
            self.best_epoch = trainer.current_epoch
            self.best_state = {k: v.to(pl_module.device) for k, v in pl_module.state_dict().items()}  # expect: TEN402

    def on_fit_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        if self.best_state is None:
            return
        logger.info("restoring weights from epoch %d (%s=%.4f)", self.best_epoch, self.monitor, self.best_score)
        pl_module.load_state_dict(self.best_state)


class WeightHistory(Callback):
    """Keeps CPU copies of the weights every few epochs (for mode-connectivity / interpolation plots)."""

    def __init__(self, every_n_epochs: int = 5):
        super().__init__()
        self.every_n_epochs = every_n_epochs
        self.history = []

    def on_train_epoch_end(self, trainer, pl_module):
        if trainer.current_epoch % self.every_n_epochs:
            return
        snap = {k: v.detach().to("cpu", copy=True) for k, v in pl_module.state_dict().items()}  # ok
        self.history.append((trainer.current_epoch, snap))


class ParamCountLogger(Callback):
    def on_fit_start(self, trainer, pl_module):
        sd = pl_module.state_dict()  # ok
        n_state = sum(t.numel() for t in sd.values())
        n_train = sum(p.numel() for p in pl_module.parameters() if p.requires_grad)
        if trainer.logger is not None:
            trainer.logger.log_hyperparams({"n_state": n_state, "n_trainable": n_train})
