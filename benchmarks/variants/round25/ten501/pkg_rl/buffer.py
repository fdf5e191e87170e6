class EpisodeStats:
    """Cross-episode diagnostics buffer (never cleared)."""

    def __init__(self):
        self.values = []
        self.log_probs = []
        self.returns = []

    def add(self, value=None, log_prob=None, ret=None):
        if value is not None:
            self.values.append(value)
        if log_prob is not None:
            self.log_probs.append(log_prob)
        if ret is not None:
            self.returns.append(ret)


class Rollout:
    """Per-update storage, cleared after each optimisation step."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.log_probs, self.values, self.rewards = [], [], []

    def push(self, log_prob, value, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
