"""Callback objects invoked by :class:`CTRTrainer`."""
import time


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, step, loss):
        pass

    def on_epoch_end(self, trainer, epoch, metrics):
        pass


class LossCurve(Callback):
    """Keeps (global_step, loss) pairs so the curve can be plotted after training."""

    def __init__(self):
        self.points = []

    def on_batch_end(self, trainer, step, loss):
        self.points.append((trainer.global_step, loss))

    def as_arrays(self):
        steps = [p[0] for p in self.points]
        values = [float(p[1]) for p in self.points]
        return steps, values


class ProgressLogger(Callback):
    def __init__(self, every=200):
        self.every = every
        self._t0 = None

    def on_train_begin(self, trainer):
        self._t0 = time.time()

    def on_batch_end(self, trainer, step, loss):
        if step % self.every == 0:
            elapsed = time.time() - (self._t0 or time.time())
            print(f"step {trainer.global_step:>7d}  loss {float(loss):.5f}  {elapsed:.0f}s")

    def on_epoch_end(self, trainer, epoch, metrics):
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.4f}" for k, v in metrics.items()))


class TensorBoardCallback(Callback):
    def __init__(self, writer):
        self.writer = writer

    def on_batch_end(self, trainer, step, loss):
        self.writer.add_scalar("train/bce", float(loss), trainer.global_step)

    def on_epoch_end(self, trainer, epoch, metrics):
        for k, v in metrics.items():
            self.writer.add_scalar(f"epoch/{k}", v, epoch)


class EarlyStopping(Callback):
    def __init__(self, monitor="val_auc", patience=2, mode="max"):
        self.monitor = monitor
        self.patience = patience
        self.mode = mode
        self.best = None
        self.bad_epochs = 0

    def on_epoch_end(self, trainer, epoch, metrics):
        cur = metrics.get(self.monitor)
        if cur is None:
            return
        improved = self.best is None or (cur > self.best if self.mode == "max" else cur < self.best)
        if improved:
            self.best = cur
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            if self.bad_epochs >= self.patience:
                trainer.stop_training = True
