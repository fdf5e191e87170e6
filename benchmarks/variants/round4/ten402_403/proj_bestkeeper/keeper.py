"""Tracks the best model seen so far during training (used by train.py)."""
import copy
import json
import time


class BestKeeper:
    """Remembers the best weights according to a validation metric."""

    def __init__(self, metric="val_acc", greater_is_better=True, log_path=None):
        self.metric = metric
        self.greater = greater_is_better
        self.log_path = log_path
        self.value = None
        self.state = None
        self.step = None
        self.events = []

    def is_better(self, value):
        if self.value is None:
            return True
        return value > self.value if self.greater else value < self.value

    def update(self, model, metrics, step):
        value = metrics[self.metric]
        if not self.is_better(value):
            return False
        self.value = value
        self.step = step
        self.state = copy.copy(model.state_dict())  # expect: TEN402
        self.events.append({"step": step, self.metric: value, "time": time.time()})
        if self.log_path:
            with open(self.log_path, "w") as fh:
                json.dump(self.events, fh)
        return True

    def load_into(self, model):
        if self.state is None:
            raise RuntimeError("no best state recorded yet")
        model.load_state_dict(self.state)
        return self.step

    def summary(self):
        return {"metric": self.metric, "best": self.value, "step": self.step,
                "n_improvements": len(self.events)}
