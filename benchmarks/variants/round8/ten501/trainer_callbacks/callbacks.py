import json
import os
import time


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, batch_idx, loss, outputs, targets):
        pass

    def on_val_batch_end(self, trainer, batch_idx, loss, outputs, targets):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.batch_losses = []
        self.epoch_losses = []

    def on_batch_end(self, trainer, batch_idx, loss, outputs, targets):
        self.batch_losses.append(loss)

    def on_epoch_end(self, trainer, epoch, logs):
        if self.batch_losses:
            self.epoch_losses.append(sum(self.batch_losses) / len(self.batch_losses))
        self.batch_losses = []


class AccuracyMeter(Callback):
    def __init__(self):
        self.correct = 0
        self.seen = 0
        self.val_correct = 0
        self.val_seen = 0

    def on_batch_end(self, trainer, batch_idx, loss, outputs, targets):
        self.correct += (outputs.argmax(dim=1) == targets).sum().item()
        self.seen += targets.numel()

    def on_val_batch_end(self, trainer, batch_idx, loss, outputs, targets):
        self.val_correct += (outputs.argmax(dim=1) == targets).sum().item()
        self.val_seen += targets.numel()

    def on_epoch_end(self, trainer, epoch, logs):
        logs["train_acc"] = self.correct / max(self.seen, 1)
        logs["val_acc"] = self.val_correct / max(self.val_seen, 1)
        self.correct = self.seen = self.val_correct = self.val_seen = 0


class JSONLogger(Callback):
    def __init__(self, path):
        self.path = path
        self.t0 = None

    def on_train_begin(self, trainer):
        self.t0 = time.time()
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)

    def on_epoch_end(self, trainer, epoch, logs):
        record = {"epoch": epoch, "elapsed": time.time() - self.t0,
                  "lr": trainer.optimizer.param_groups[0]["lr"],
                  **{k: float(v) for k, v in logs.items()}}
        with open(self.path, "a") as f:
            f.write(json.dumps(record) + "\n")
