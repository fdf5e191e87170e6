"""Callbacks the engine calls after every optimisation step."""


class LossLogger:
    def __init__(self):
        self.records = []

    def on_step_end(self, step, loss):
        self.records.append({"step": step, "loss": loss})


class BestKeeper:
    def __init__(self):
        self.best = float("inf")
        self.history = []

    def on_step_end(self, step, loss):
        value = float(loss)
        self.history.append(value)
        self.best = min(self.best, value)
