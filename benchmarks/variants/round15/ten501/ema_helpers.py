"""Two EMA helpers: a weight EMA done right, and a loss smoother that keeps the graph."""
import copy

import torch
import torch.nn as nn


class ModelEMA:
    """Exponential moving average of model weights (timm / YOLO style)."""

    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay
        self.updates = 0
        for p in self.ema.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(self.decay).add_(msd[k].detach(), alpha=1 - self.decay)


class ShadowWeights:
    """Keeps a dict of shadow parameters; updated from the live parameters."""

    def __init__(self, model, decay=0.95):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    def update(self, model):
        for name, param in model.named_parameters():
            self.shadow[name] = self.decay * self.shadow[name] + (1 - self.decay) * param  # expect: TEN501


class LossSmoother:
    def __init__(self, beta=0.98):
        self.beta = beta
        self.value = None

    def __call__(self, loss):
        self.value = loss if self.value is None else self.beta * self.value + (1 - self.beta) * loss
        return self.value


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.Linear(8, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ema = ModelEMA(model)
    shadow = ShadowWeights(model)
    smoother = LossSmoother()
    smooth_scalar = 0.0
    for step in range(8):
        x, y = torch.randn(16, 6), torch.randint(0, 2, (16,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)  # ok
        shadow.update(model)
        smoothed = smoother(loss)  # expect: TEN501
        smooth_scalar = 0.98 * smooth_scalar + 0.02 * loss.item()  # ok
    print(float(smoothed), smooth_scalar, ema.updates)
