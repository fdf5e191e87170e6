"""Exponential moving average of weights (timm ModelEmaV2-like) plus an inline shadow dict."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NaiveEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]

    def update(self, model):
        for e, p in zip(self.shadow, model.parameters()):
            e.mul_(self.decay).add_(p, alpha=1 - self.decay)


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(self.decay * ema_v + (1.0 - self.decay) * model_v)


model = nn.Sequential(nn.Linear(7, 14), nn.ReLU(), nn.Linear(14, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ema = NaiveEMA(model)
ema_v2 = ModelEmaV2(model)
decay = 0.99
shadow = {n: p.detach().clone() for n, p in model.named_parameters()}
shadow_ok = {n: p.detach().clone() for n, p in model.named_parameters()}
for step in range(5):
    x, y = torch.randn(8, 7), torch.randint(0, 3, (8,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(model)  # expect: TEN501
    ema_v2.update(model)  # ok
    for name, p in model.named_parameters():
        shadow[name] = decay * shadow[name] + (1 - decay) * p  # expect: TEN501
        shadow_ok[name] = decay * shadow_ok[name] + (1 - decay) * p.detach()  # ok
print(ema.shadow[0].requires_grad, shadow["0.weight"].requires_grad, shadow_ok["0.weight"].requires_grad)
