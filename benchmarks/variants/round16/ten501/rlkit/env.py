import random


class GridWorld:
    """5x5 grid, start top-left, goal bottom-right, small step penalty."""

    ACTIONS = [(0, 1), (1, 0), (0, -1), (-1, 0)]

    def __init__(self, size=5, max_steps=30, seed=0):
        self.size, self.max_steps = size, max_steps
        self.rng = random.Random(seed)

    def reset(self):
        self.pos, self.t = (0, 0), 0
        return self._obs()

    def _obs(self):
        r, c = self.pos
        return [r / (self.size - 1), c / (self.size - 1)]

    def step(self, action):
        if self.rng.random() < 0.1:
            action = self.rng.randrange(4)
        dr, dc = self.ACTIONS[action]
        r = min(max(self.pos[0] + dr, 0), self.size - 1)
        c = min(max(self.pos[1] + dc, 0), self.size - 1)
        self.pos, self.t = (r, c), self.t + 1
        at_goal = self.pos == (self.size - 1, self.size - 1)
        return self._obs(), (1.0 if at_goal else -0.02), at_goal or self.t >= self.max_steps
