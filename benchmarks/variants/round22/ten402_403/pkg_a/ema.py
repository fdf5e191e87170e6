"""Exponential moving average of parameters."""
import torch


class EMA:
    def __init__(self, model, decay):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]  # ok

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow, model.parameters()):
            s.lerp_(p.detach(), 1.0 - self.decay)

    @torch.no_grad()
    def apply_to(self, model):
        """Overwrite the live parameters with the averaged ones (in place)."""
        for s, p in zip(self.shadow, model.parameters()):
            p.data.copy_(s)
