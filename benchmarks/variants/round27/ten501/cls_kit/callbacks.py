"""Trainer callbacks."""


class Callback:
    def on_batch_end(self, trainer, outputs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, outputs):
        self.losses.append(outputs["loss"])


class GradNormPrinter(Callback):
    def __init__(self):
        self.norms = []

    def on_batch_end(self, trainer, outputs):
        total = sum(p.grad.norm() ** 2 for p in trainer.model.parameters() if p.grad is not None)
        self.norms.append(total.sqrt().item())
