"""Exponential moving average of model weights (two implementations)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ModelEMA:
    """EMA over the state dict, kept as a plain dict of tensors."""

    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        self.num_updates += 1
        d = min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(d).add_(v.detach(), alpha=1 - d)

    def copy_to(self, model):
        model.load_state_dict(self.shadow)


class ModelEmaV2(nn.Module):
    """EMA kept as a deep-copied module (timm style)."""

    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)  # ok
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def _update(self, model, update_fn):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(update_fn(ema_v, model_v))  # ok

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1.0 - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)


def train(model, ema, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    x = torch.randn(64, 6)
    y = (x[:, 0] - x[:, 1] > 0).long()
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        ema.update(model)
    return x, y


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    ema = ModelEMA(model)
    x, y = train(model, ema)
    averaged = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    ema.copy_to(averaged)
    diff = sum((a - b).abs().sum().item() for a, b in zip(averaged.parameters(), model.parameters()))
    print("dict EMA distance from live weights:", diff)

    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    ema2 = ModelEmaV2(model)
    train(model, ema2)
    diff = sum((a - b).abs().sum().item() for a, b in zip(ema2.module.parameters(), model.parameters()))
    print("module EMA distance from live weights:", round(diff, 4))
