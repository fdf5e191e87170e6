"""Callback container and two callbacks."""


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def on_batch_end(self, step, logs):
        for cb in self.callbacks:
            cb.on_batch_end(step, logs)

    def on_epoch_end(self, epoch, logs):
        for cb in self.callbacks:
            cb.on_epoch_end(epoch, logs)


class HistoryCallback:
    def __init__(self):
        self.batch_logs = []
        self.epoch_logs = []

    def on_batch_end(self, step, logs):
        self.batch_logs.append(dict(logs))

    def on_epoch_end(self, epoch, logs):
        self.epoch_logs.append(dict(logs, epoch=epoch))


class BestValueCallback:
    def __init__(self, key="val_loss"):
        self.key, self.best = key, float("inf")

    def on_batch_end(self, step, logs):
        pass

    def on_epoch_end(self, epoch, logs):
        self.best = min(self.best, float(logs[self.key]))
