"""Exponential moving average of weights, swapped in for evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow, model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)

    @torch.no_grad()
    def copy_to(self, model):
        for s, p in zip(self.shadow, model.parameters()):
            p.data.copy_(s)


def evaluate(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def train(model, x, y, steps=50):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ema = ModelEMA(model)
    for step in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema.update(model)
        if step % 10 == 9:
            # evaluate with EMA weights, then go back to the raw weights
            raw = model.state_dict()  # expect: TEN402
            ema.copy_to(model)
            print("ema val", evaluate(model, x, y))
            model.load_state_dict(raw)
    return ema


def train_correct(model, x, y, steps=50):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ema = ModelEMA(model)
    for step in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema.update(model)
        if step % 10 == 9:
            backup = {k: v.clone() for k, v in model.state_dict().items()}  # ok: TEN402
            ema.copy_to(model)
            print("ema val", evaluate(model, x, y))
            model.load_state_dict(backup)
    return ema


if __name__ == "__main__":
    x, y = torch.randn(64, 6), torch.randn(64, 1)
    train(nn.Linear(6, 1), x, y)
    train_correct(nn.Linear(6, 1), x, y)
