import torch


class GridLine:
    """Agent walks on a line of `n` cells; reward at the right end."""

    def __init__(self, n=6, max_steps=10):
        self.n, self.max_steps = n, max_steps

    def reset(self):
        self.pos, self.t = 0, 0
        return self.obs()

    def obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.t += 1
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1 or self.t >= self.max_steps
        return self.obs(), (1.0 if self.pos == self.n - 1 else -0.01), done
