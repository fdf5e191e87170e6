"""Training statistics helpers."""
import statistics


class RunningStats:
    """Keeps every pushed value to report mean/last over the whole run."""

    def __init__(self):
        self.values = []

    def push(self, x):
        self.values.append(x)

    def mean(self):
        return sum(self.values) / len(self.values)


class EpisodeLogger:
    """Converts to python floats before storing."""

    def __init__(self):
        self.rows = []

    def record(self, episode, **metrics):
        self.rows.append({"episode": episode, **{k: float(v) for k, v in metrics.items()}})

    def summary(self):
        return {k: statistics.mean(r[k] for r in self.rows) for k in self.rows[0] if k != "episode"}
