import torch


class Callback:
    def on_step_end(self, trainer, logs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.rows = []

    def on_step_end(self, trainer, logs):
        self.rows.append(dict(logs))


class RunningAverages(Callback):
    def __init__(self):
        self.sums = {}

    def on_step_end(self, trainer, logs):
        for k, v in logs.items():
            self.sums[k] = self.sums.get(k, 0.0) + v


class SampleSaver(Callback):
    def __init__(self, every=2):
        self.every = every
        self.samples = []

    def on_step_end(self, trainer, logs):
        if trainer.step % self.every == 0:
            with torch.no_grad():
                self.samples.append(trainer.G(trainer.fixed_z))


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def on_step_end(self, trainer, logs):
        for cb in self.callbacks:
            cb.on_step_end(trainer, logs)
