import math
import time

import torch


class Callback:
    pass


class LossHistory(Callback):
    def __init__(self):
        self.train_losses = []
        self.val_losses = []
        self.epoch_means = []

    def on_train_batch_end(self, trainer, batch_idx, loss, **_):
        self.train_losses.append(loss)

    def on_val_start(self, trainer):
        self.val_losses = []

    def on_val_batch_end(self, trainer, batch_idx, loss, **_):
        self.val_losses.append(loss)

    def on_val_end(self, trainer):
        if self.val_losses:
            trainer.logged["val_loss"] = torch.stack(self.val_losses).mean().item()

    def on_epoch_end(self, trainer):
        n = len(self.train_losses) - sum(c for _, c in self.epoch_means)
        mean = torch.stack(self.train_losses[-n:]).mean().item() if n else math.nan
        self.epoch_means.append((mean, n))
        trainer.logged["train_loss"] = mean


class ProgressPrinter(Callback):
    def __init__(self, every=100):
        self.every = every

    def on_epoch_start(self, trainer):
        self._acc = 0.0
        self._n = 0
        self._t0 = time.time()

    def on_train_batch_end(self, trainer, batch_idx, loss, **_):
        self._acc += float(loss)  # ok
        self._n += 1
        if batch_idx % self.every == 0:
            print(f"epoch {trainer.epoch} step {batch_idx} loss {self._acc / self._n:.4f} "
                  f"({time.time() - self._t0:.1f}s)")

    def on_epoch_end(self, trainer):
        msg = " ".join(f"{k}={v:.4f}" for k, v in trainer.logged.items())
        print(f"== epoch {trainer.epoch} done: {msg}")


class ValAccuracy(Callback):
    def on_val_start(self, trainer):
        self.correct = 0
        self.total = 0
        self.logits = []

    def on_val_batch_end(self, trainer, batch_idx, logits, target, **_):
        self.correct += (logits.argmax(-1) == target).sum().item()
        self.total += target.numel()
        self.logits.append(logits)

    def on_val_end(self, trainer):
        trainer.logged["val_acc"] = self.correct / max(1, self.total)
        probs = torch.cat(self.logits).softmax(-1)
        trainer.logged["val_conf"] = probs.max(-1).values.mean().item()


class CheckpointOnBest(Callback):
    def __init__(self, path, monitor="val_acc", mode="max", patience=None):
        self.path = path
        self.monitor = monitor
        self.sign = 1.0 if mode == "max" else -1.0
        self.best = -math.inf
        self.patience = patience
        self.bad_epochs = 0

    def on_epoch_end(self, trainer):
        value = trainer.logged.get(self.monitor)
        if value is None:
            return
        if self.sign * value > self.best:
            self.best = self.sign * value
            self.bad_epochs = 0
            torch.save(trainer.model.state_dict(), self.path)
        else:
            self.bad_epochs += 1
            if self.patience is not None and self.bad_epochs >= self.patience:
                trainer.should_stop = True
