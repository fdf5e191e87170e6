import torch


class PointEnv:
    """Move a point towards the origin; reward = -distance."""

    def reset(self):
        self.s = torch.randn(3)
        return self.s.clone()

    def step(self, a):
        self.s = self.s.clone()
        self.s[0] = self.s[0] + 0.5 * a.squeeze()
        return self.s.clone(), -self.s.abs().sum().item()
