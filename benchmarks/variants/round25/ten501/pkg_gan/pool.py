import random


class ImagePool:
    """History of generated samples (CycleGAN-style) used to feed the discriminator."""

    def __init__(self, size=50):
        self.size = size
        self.items = []

    def push(self, batch):
        if len(self.items) < self.size:
            self.items.append(batch)
        else:
            self.items[random.randrange(self.size)] = batch

    def sample(self):
        return random.choice(self.items)


class Stats:
    def __init__(self):
        self.series = {}

    def record(self, name, value):
        self.series.setdefault(name, []).append(value)
