"""Storage helpers for on-policy agents."""
import torch


class RolloutStorage:
    """Per-update storage; the agent clears it after every optimisation step."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.log_probs, self.values, self.rewards = [], [], []
        self.entropies, self.masks = [], []

    def insert(self, log_prob, value, reward, entropy, mask):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.entropies.append(entropy)
        self.masks.append(mask)

    def compute_returns(self, next_value, gamma):
        R = next_value
        returns = []
        for r, m in zip(reversed(self.rewards), reversed(self.masks)):
            R = r + gamma * R * m
            returns.insert(0, R)
        return torch.stack(returns)

    def __len__(self):
        return len(self.rewards)


class EpisodeStats:
    """Lives for the whole run; used for plots at the end."""

    def __init__(self):
        self.records = []
        self.value_loss_sum = 0.0

    def add(self, **kw):
        self.records.append(kw)

    def add_value_loss(self, v):
        self.value_loss_sum += v

    def last(self, key):
        return self.records[-1][key] if self.records else None
