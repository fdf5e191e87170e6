class EpisodeBuffer:
    def __init__(self):
        self.log_probs, self.values, self.rewards = [], [], []

    def add(self, log_prob, value, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)

    def clear(self):
        self.log_probs.clear()
        self.values.clear()
        self.rewards.clear()

    def __len__(self):
        return len(self.rewards)


class StatsRecorder:
    def __init__(self):
        self.returns = []
        self.losses = []

    def add_episode(self, ep_return, loss):
        self.returns.append(ep_return)
        self.losses.append(loss)

    def recent_mean(self, n=5):
        xs = self.returns[-n:]
        return sum(xs) / max(len(xs), 1)
