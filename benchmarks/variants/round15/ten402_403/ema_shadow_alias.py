"""Exponential moving average of weights; the shadow is built from detached views."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class WeightEMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = {k: v.detach() for k, v in model.state_dict().items() if v.dtype.is_floating_point}  # expect: TEN402
        self.backup = {}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if k in self.shadow:
                self.shadow[k].mul_(self.decay).add_(v, alpha=1 - self.decay)

    def apply_shadow(self, model):
        self.backup = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        model.load_state_dict(self.shadow, strict=False)

    def restore(self, model):
        model.load_state_dict(self.backup)
        self.backup = {}


class ModelEMA:
    """timm-style: a separate deep-copied module updated with lerp."""

    def __init__(self, model, decay=0.99):
        self.module = copy.deepcopy(model).eval()  # ok
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.dtype.is_floating_point:
                ema_v.copy_(ema_v * self.decay + (1.0 - self.decay) * v)  # ok


def run(steps=30):
    model = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 1))
    ema_a, ema_b = WeightEMA(model), ModelEMA(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(64, 6), torch.randn(64, 1)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema_a.update(model)
        ema_b.update(model)
    ema_a.apply_shadow(model)
    model.eval()
    with torch.no_grad():
        out_a = model(x)
    ema_a.restore(model)
    print("shadow equals live weights:", torch.equal(ema_a.shadow["0.weight"], model[0].weight))
    print("timm ema differs:", not torch.equal(ema_b.module[0].weight, model[0].weight), out_a.shape)


if __name__ == "__main__":
    run()
