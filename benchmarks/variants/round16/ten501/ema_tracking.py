"""Weight EMA and a smoothed loss curve for a small regression net."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelEMA:
    """Exponential moving average of a model's parameters (warm-up on the decay)."""

    def __init__(self, model, decay=0.99, tau=20):
        self.ema = copy.deepcopy(model).eval()
        for p in self.ema.parameters():
            p.requires_grad_(False)
        self.decay = decay
        self.tau = tau
        self.updates = 0

    def _current_decay(self):
        return self.decay * (1 - math.exp(-self.updates / self.tau))

    def update(self, model):
        self.updates += 1
        d = self._current_decay()
        for ema_p, p in zip(self.ema.parameters(), model.parameters()):
            ema_p.mul_(d).add_(p, alpha=1 - d)  # expect: TEN501


class ModelEMAV2(ModelEMA):
    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = self._current_decay()
        for ema_p, p in zip(self.ema.parameters(), model.parameters()):
            ema_p.lerp_(p, 1.0 - d)  # ok


def main():
    model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    ema_a, ema_b = ModelEMA(model), ModelEMAV2(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(300, 4)
    y = (x ** 2).sum(1, keepdim=True) - 2
    beta = 0.9
    smoothed, smoothed_f = None, 0.0
    for step in range(25):
        idx = torch.randint(0, 300, (32,))
        loss = nn.functional.mse_loss(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_a.update(model)
        ema_b.update(model)

        smoothed = loss if smoothed is None else beta * smoothed + (1 - beta) * loss  # expect: TEN501
        smoothed_f = beta * smoothed_f + (1 - beta) * loss.item()  # ok
        if step % 8 == 0:
            debiased = smoothed_f / (1 - beta ** (step + 1))
            print(f"step {step}: loss {loss.item():.3f} smoothed {debiased:.3f}")

    with torch.no_grad():
        for name, net in [("raw", model), ("ema", ema_a.ema), ("ema_v2", ema_b.ema)]:
            print(name, nn.functional.mse_loss(net(x), y).item())


if __name__ == "__main__":
    main()
