"""Exponential moving average of model weights, three implementations."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ShadowEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    def update(self, model):
        for name, param in model.named_parameters():
            self.shadow[name] = self.decay * self.shadow[name] + (1 - self.decay) * param  # expect: TEN501


class ParamEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    def update(self, model):
        for name, param in model.named_parameters():
            self.shadow[name] = self.decay * self.shadow[name] + (1 - self.decay) * param.detach()  # ok


class InplaceEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    @torch.no_grad()
    def update(self, model):
        for name, param in model.named_parameters():
            self.shadow[name].mul_(self.decay).add_(param, alpha=1 - self.decay)  # ok


model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
emas = [ShadowEMA(model), ParamEMA(model), InplaceEMA(model)]
for step in range(6):
    x = torch.randn(8, 3)
    loss = nn.functional.mse_loss(model(x), x.sum(1, keepdim=True))
    opt.zero_grad()
    loss.backward()
    opt.step()
    for ema in emas:
        ema.update(model)

print([round(e.shadow["0.weight"].sum().item(), 4) for e in emas])
