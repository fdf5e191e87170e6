import math

import torch
from torch import nn


class ModelEMA:
    """Exponential moving average of model weights, with a warm-up on the decay (YOLO-style)."""

    def __init__(self, model: nn.Module, decay: float = 0.9999, tau: float = 2000.0):
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        self.backup = {}
        self.decay = decay
        self.tau = tau
        self.updates = 0

    @torch.no_grad()
    def update(self, model: nn.Module):
        self.updates += 1
        d = self.decay * (1 - math.exp(-self.updates / self.tau))
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(d).add_(v.detach(), alpha=1 - d)
            else:
                self.shadow[k].copy_(v)

    def apply_to(self, model: nn.Module):
        self.backup = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
        model.load_state_dict(self.shadow, strict=True)

    def restore(self, model: nn.Module):
        model.load_state_dict(self.backup)
        self.backup = {}


def train(model, loader, val_fn, epochs, device, ckpt="ema_last.pt"):
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    ema = ModelEMA(model)
    step = 0
    for epoch in range(epochs):
        model.train()
        for imgs, targets in loader:
            loss = model(imgs.to(device), targets.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
            step += 1

        ema.apply_to(model)
        metrics = val_fn(model)
        ema.restore(model)
        print(epoch, metrics)
        torch.save({"model": model.state_dict(), "ema": ema.shadow, "step": step}, ckpt)  # ok
    return ema
