"""EMA of weights with apply_shadow()/restore() around evaluation.

Pattern common in competition code and in torch_ema / diffusers EMAModel
(store -> copy_to -> restore).
"""
import torch
from torch import nn


class EMA:
    def __init__(self, model, decay=0.999):
        self.model = model
        self.decay = decay
        self.shadow = {}
        self.backup = {}

    def register(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.shadow[name] = param.detach().clone()  # ok

    @torch.no_grad()
    def update(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                new_average = (1.0 - self.decay) * param.data + self.decay * self.shadow[name]
                self.shadow[name] = new_average

    @torch.no_grad()
    def apply_shadow(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.backup[name] = param.data  # expect: TEN402
                param.data.copy_(self.shadow[name])

    @torch.no_grad()
    def restore(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                param.data.copy_(self.backup[name])
        self.backup = {}


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
    ema = EMA(net, decay=0.9)
    ema.register()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for step in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()
        ema.update()
    before = net[0].weight.detach().clone()
    ema.apply_shadow()
    _ = net(x)
    ema.restore()
    print("training weights recovered:", torch.allclose(before, net[0].weight))
