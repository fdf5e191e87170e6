"""Trainer callbacks and a small logging helper."""
import torch


def record(history, **metrics):
    history.append({k: (v.item() if torch.is_tensor(v) else v) for k, v in metrics.items()})


class Callback:
    def on_step_end(self, trainer, step, loss):
        pass

    def on_eval_end(self, trainer, ppl):
        pass


class LossCurve(Callback):
    def __init__(self):
        self.points = []

    def on_step_end(self, trainer, step, loss):
        self.points.append((step, loss))


class GradNormMonitor(Callback):
    def __init__(self):
        self.norms = []

    def on_step_end(self, trainer, step, loss):
        total = sum(p.grad.norm() ** 2 for p in trainer.model.parameters() if p.grad is not None)
        self.norms.append(float(total) ** 0.5)


class PerplexityLog(Callback):
    def __init__(self):
        self.values = []

    def on_eval_end(self, trainer, ppl):
        self.values.append(ppl)
