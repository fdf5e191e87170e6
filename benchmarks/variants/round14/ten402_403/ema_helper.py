"""Exponential moving average of weights, evaluated by swapping weights in."""
import torch
from torch import nn


class WeightEMA:
    def __init__(self, model, decay=0.9):
        self.model = model
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        self.backup = {}

    @torch.no_grad()
    def update(self):
        for n, p in self.model.named_parameters():
            self.shadow[n].mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)  # ok

    @torch.no_grad()
    def apply_shadow(self):
        self.backup = {n: p.data for n, p in self.model.named_parameters()}  # expect: TEN402
        for n, p in self.model.named_parameters():
            p.data.copy_(self.shadow[n])

    @torch.no_grad()
    def restore(self):
        for n, p in self.model.named_parameters():
            p.data.copy_(self.backup[n])
        self.backup = {}


class SafeEMA(WeightEMA):
    @torch.no_grad()
    def apply_shadow(self):
        self.backup = {n: p.data.clone() for n, p in self.model.named_parameters()}  # ok
        for n, p in self.model.named_parameters():
            p.data.copy_(self.shadow[n])


def evaluate(model, x, y):
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def main(ema_cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    ema = ema_cls(model, decay=0.8)
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    for it in range(20):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update()
        if it % 5 == 4:
            raw = evaluate(model, x, y)
            ema.apply_shadow()
            smooth = evaluate(model, x, y)
            ema.restore()
            back = evaluate(model, x, y)
            print(f"{ema_cls.__name__} it={it} raw={raw:.4f} ema={smooth:.4f} after-restore={back:.4f}")


if __name__ == "__main__":
    main(WeightEMA)
    main(SafeEMA)
