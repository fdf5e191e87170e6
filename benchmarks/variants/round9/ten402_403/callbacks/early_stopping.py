import logging
import math

logger = logging.getLogger(__name__)


class EarlyStopping:
    """Stop training when a monitored metric has stopped improving.

    Args:
        monitor: key in the ``logs`` dict passed to :meth:`on_epoch_end`.
        mode: ``"min"`` or ``"max"``.
        patience: number of epochs with no improvement after which training stops.
        min_delta: minimum change of the metric that counts as an improvement.
        restore_best_weights: reload the weights from the best epoch when training ends.
    """

    def __init__(self, monitor="val_loss", mode="min", patience=5, min_delta=0.0,
                 restore_best_weights=True):
        if mode not in ("min", "max"):
            raise ValueError(f"mode must be 'min' or 'max', got {mode!r}")
        self.monitor = monitor
        self.mode = mode
        self.patience = patience
        self.min_delta = abs(min_delta)
        self.restore_best_weights = restore_best_weights
        self.best = math.inf if mode == "min" else -math.inf
        self.best_epoch = -1
        self.wait = 0
        self._saved = None

    def _is_improvement(self, value):
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta

    def on_epoch_end(self, trainer, logs):
        value = logs.get(self.monitor)
        if value is None:
            logger.warning("EarlyStopping: %r not in logs (have: %s)", self.monitor, ", ".join(logs))
            return
        value = float(value)
        if self._is_improvement(value):
            self.best = value
            self.best_epoch = trainer.epoch
            self.wait = 0
            if self.restore_best_weights:
                self._saved = {k: v for k, v in trainer.model.state_dict().items()}  # expect: TEN402
            return

        self.wait += 1
        if self.wait >= self.patience:
            logger.info(
                "early stopping at epoch %d (best %s=%.5f at epoch %d)",
                trainer.epoch, self.monitor, self.best, self.best_epoch,
            )
            trainer.should_stop = True

    def on_train_end(self, trainer, logs=None):
        if self.restore_best_weights and self._saved is not None:
            logger.info("restoring weights from epoch %d", self.best_epoch)
            trainer.model.load_state_dict(self._saved)
