"""Rollout storage and statistics."""


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def add(self, log_prob, value, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)

    def clear(self):
        self.log_probs, self.values, self.rewards = [], [], []


class EpisodeStats:
    def __init__(self):
        self.returns = []

    def push(self, ret):
        self.returns.append(ret)


def log_values(trace, values):
    trace.append(values.mean())
