"""Keras-flavoured callbacks for the hand-written training loop."""


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, logs):
        pass

    def on_epoch_end(self, trainer, logs):
        pass


class History(Callback):
    """Keeps every batch log and every epoch log."""

    def on_train_begin(self, trainer):
        self.batch_losses = []
        self.epoch_logs = []

    def on_batch_end(self, trainer, logs):
        self.batch_losses.append(logs["loss"])

    def on_epoch_end(self, trainer, logs):
        self.epoch_logs.append(dict(logs))


class PrintLogger(Callback):
    """Prints the batch logs every `every` batches; stores nothing."""

    def __init__(self, every=50):
        self.every = every
        self.n = 0

    def on_batch_end(self, trainer, logs):
        self.n += 1
        if self.n % self.every == 0:
            print(" ".join(f"{k}={float(v):.4f}" for k, v in logs.items()))


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", patience=3):
        self.monitor = monitor
        self.patience = patience
        self.best = float("inf")
        self.wait = 0

    def on_epoch_end(self, trainer, logs):
        current = float(logs[self.monitor])
        if current < self.best:
            self.best = current
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.stop_training = True
