class EpisodeStats:
    def __init__(self):
        self.returns = []
        self.lengths = []
        self.td = []

    def end_episode(self, ret, length):
        self.returns.append(ret)
        self.lengths.append(length)

    def record_td(self, value):
        self.td.append(value)

    def summary(self, last=20):
        r = self.returns[-last:]
        return sum(r) / max(len(r), 1)
