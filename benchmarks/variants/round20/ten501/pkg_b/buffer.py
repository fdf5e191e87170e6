class EpisodeBuffer:
    """Per-episode storage; emptied after every update."""

    def __init__(self):
        self.log_probs = []
        self.values = []
        self.entropies = []
        self.rewards = []

    def add(self, log_prob, value, entropy, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.entropies.append(entropy)
        self.rewards.append(reward)

    def clear(self):
        self.log_probs.clear()
        self.values.clear()
        self.entropies.clear()
        self.rewards.clear()

    def __len__(self):
        return len(self.rewards)
