import torch


class EpisodeBuffer:
    """Per-episode storage, cleared after each update."""

    def __init__(self):
        self.log_probs, self.values, self.rewards = [], [], []

    def add(self, log_prob, value, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)

    def clear(self):
        self.log_probs, self.values, self.rewards = [], [], []


class TrajectoryArchive:
    """Keeps every trajectory forever (for later analysis)."""

    def __init__(self):
        self.trajectories = []

    def save(self, traj):
        self.trajectories.append(traj)
