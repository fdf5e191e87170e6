import math
import time
from collections import defaultdict


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_begin(self, trainer, epoch):
        pass

    def on_batch_end(self, trainer, batch_idx, logs):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class History(Callback):
    def on_train_begin(self, trainer):
        self.history = defaultdict(list)
        self.epochs = []

    def on_batch_end(self, trainer, batch_idx, logs):
        for k, v in logs.items():
            self.history[k].append(v)  # expect: TEN501

    def on_epoch_end(self, trainer, epoch, logs):
        self.epochs.append(dict(logs))  # ok


class ProgressPrinter(Callback):
    def __init__(self, every=50):
        self.every = every

    def on_epoch_begin(self, trainer, epoch):
        self._running = 0.0
        self._n = 0
        self._t0 = time.time()

    def on_batch_end(self, trainer, batch_idx, logs):
        self._running += float(logs["loss"])  # ok
        self._n += 1
        if batch_idx % self.every == 0:
            rate = self._n / max(time.time() - self._t0, 1e-6)
            print(f"  batch {batch_idx}: loss {self._running / self._n:.4f} ({rate:.1f} it/s)")


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", patience=5, min_delta=0.0):
        self.monitor = monitor
        self.patience = patience
        self.min_delta = min_delta

    def on_train_begin(self, trainer):
        self.best = math.inf
        self.wait = 0

    def on_epoch_end(self, trainer, epoch, logs):
        current = logs.get(self.monitor)
        if current is None:
            return
        if current < self.best - self.min_delta:
            self.best = current
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                print(f"Early stopping at epoch {epoch}")
                trainer.stop_training = True
