"""Exponential moving average of weights, evaluated by swapping the shadow in."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.99):
        self.model = model
        self.decay = decay
        self.shadow = {}
        self.backup = {}
        for name, param in model.named_parameters():
            if param.requires_grad:
                self.shadow[name] = param.data.clone()  # ok

    @torch.no_grad()
    def update(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                assert name in self.shadow
                new_average = (1.0 - self.decay) * param.data + self.decay * self.shadow[name]
                self.shadow[name] = new_average

    def apply_shadow(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.backup[name] = param.data  # expect: TEN402
                param.data.copy_(self.shadow[name])

    def restore(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                assert name in self.backup
                param.data = self.backup[name]
        self.backup = {}


def run(steps=30, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
    ema = EMA(model, decay=0.9)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(40, 6), torch.randn(40, 1)
    for step in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema.update()
        if (step + 1) % 10 == 0:
            raw = model[0].weight.detach().clone()
            ema.apply_shadow()
            with torch.no_grad():
                ema_loss = F.mse_loss(model(x), y).item()
            ema.restore()
            back = torch.equal(model[0].weight.detach(), raw)
            print(f"step {step + 1}: ema loss {ema_loss:.4f}; raw weights restored: {back}")
    return model, ema


if __name__ == "__main__":
    run()
