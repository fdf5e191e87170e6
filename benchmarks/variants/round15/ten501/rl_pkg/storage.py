"""Per-episode storage for an on-policy agent; cleared after each update."""


class EpisodeStorage:
    def __init__(self):
        self.log_probs, self.values, self.rewards, self.entropies = [], [], [], []

    def add(self, log_prob, value, reward, entropy):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.entropies.append(entropy)

    def clear(self):
        self.log_probs.clear()
        self.values.clear()
        self.rewards.clear()
        self.entropies.clear()

    def __len__(self):
        return len(self.rewards)
