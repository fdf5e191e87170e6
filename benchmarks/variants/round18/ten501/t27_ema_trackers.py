"""Exponential moving averages of the loss and of the weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.scale, None


class LossEMA:
    def __init__(self, decay=0.9):
        self.decay = decay
        self.ema = None
        self.num_updates = 0

    def update(self, value):
        self.num_updates += 1
        self.ema = value if self.ema is None else self.decay * self.ema + (1 - self.decay) * value
        return self.ema


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_ema = LossEMA()
loss_ema_clean = LossEMA()
decay = 0.99
shadow = {name: p.detach().clone() for name, p in model.named_parameters()}
shadow_bug = {name: p.detach().clone() for name, p in model.named_parameters()}

for step in range(4):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    h = model[1](model[0](x))
    h = ScaleGrad.apply(h, 0.5)
    loss = F.mse_loss(model[2](h), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss_ema.update(loss)  # expect: TEN501
    loss_ema_clean.update(loss.item())  # ok
    for name, p in model.named_parameters():
        shadow[name] = decay * shadow[name] + (1 - decay) * p.detach()  # ok
        shadow_bug[name] = decay * shadow_bug[name] + (1 - decay) * p  # expect: TEN501

print(f"ema {loss_ema_clean.ema:.4f} after {loss_ema_clean.num_updates} updates; "
      f"shadow norm {shadow['0.weight'].norm().item():.4f}")
