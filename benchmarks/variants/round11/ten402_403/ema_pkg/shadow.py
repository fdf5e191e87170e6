import torch
from torch import nn


def trainable_params(model: nn.Module):
    return [p for p in model.parameters() if p.requires_grad]


class ShadowEMA:
    """EMA of parameters, kept as a name -> tensor mapping."""

    def __init__(self, model: nn.Module, decay: float = 0.999):
        self.decay = decay
        self.shadow = {n: p.data for n, p in model.named_parameters()}  # expect: TEN402
        self.backup = {}

    @torch.no_grad()
    def update(self, model: nn.Module):
        for n, p in model.named_parameters():
            self.shadow[n].mul_(self.decay).add_(p.data, alpha=1 - self.decay)

    @torch.no_grad()
    def swap_in(self, model: nn.Module):
        for n, p in model.named_parameters():
            self.backup[n] = p.detach().clone()
            p.copy_(self.shadow[n])

    @torch.no_grad()
    def swap_out(self, model: nn.Module):
        for n, p in model.named_parameters():
            p.copy_(self.backup[n])
        self.backup = {}


class ClonedEMA(ShadowEMA):
    def __init__(self, model: nn.Module, decay: float = 0.999):
        super().__init__(model, decay)
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
