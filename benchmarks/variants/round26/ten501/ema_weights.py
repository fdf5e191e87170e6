"""Exponential moving average of model weights (two implementations)."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.clone().detach() for n, p in model.named_parameters()}

    def update(self, model):
        for name, p in model.named_parameters():
            self.shadow[name] = self.decay * self.shadow[name] + (1.0 - self.decay) * p  # expect: TEN501

    def copy_to(self, model):
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(self.shadow[name])


class ModelEma(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(self.decay * ema_v + (1.0 - self.decay) * v)  # ok


class BuggyBufferEma:
    """Keeps averaged copies in plain tensors, updated in place (no no_grad)."""

    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.avg = [p.detach().clone() for p in model.parameters()]

    def update(self, model):
        for a, p in zip(self.avg, model.parameters()):
            a.mul_(self.decay).add_(p * (1.0 - self.decay))  # expect: TEN501

    def update_detached(self, model):
        for a, p in zip(self.avg, model.parameters()):
            a.mul_(self.decay).add_(p.detach() * (1.0 - self.decay))  # ok


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
ema, model_ema = EMA(model), ModelEma(model)
buf_ema, buf_ema_ok = BuggyBufferEma(model), BuggyBufferEma(model)
x, y = torch.randn(64, 6), torch.randn(64, 1)
for step in range(8):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(model)
    model_ema.update(model)
    buf_ema.update(model)
    buf_ema_ok.update_detached(model)
eval_model = copy.deepcopy(model)
ema.copy_to(eval_model)
with torch.no_grad():
    print("raw", round(nn.functional.mse_loss(model(x), y).item(), 4),
          "ema", round(nn.functional.mse_loss(eval_model(x), y).item(), 4),
          "ModelEma", round(nn.functional.mse_loss(model_ema.module(x), y).item(), 4),
          "buf", round(sum(a.sum() for a in buf_ema.avg).item(), 4), round(sum(a.sum() for a in buf_ema_ok.avg).item(), 4))
