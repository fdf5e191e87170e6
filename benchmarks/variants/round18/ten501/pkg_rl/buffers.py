"""Per-episode storage for the on-policy agent."""


class EpisodeBuffer:
    def __init__(self):
        self.reset()

    def reset(self):
        self.log_probs = []
        self.values = []
        self.rewards = []
        self.entropies = []

    def add(self, log_prob, value, reward, entropy):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.entropies.append(entropy)

    def __len__(self):
        return len(self.rewards)
