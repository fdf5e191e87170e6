"""Weight-averaging utilities: an EMA with swap-in/swap-out and a simple SWA."""
import torch
from torch import nn


class ParamEMA:
    def __init__(self, model, decay=0.9):
        self.model = model
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        self.backup = {}

    @torch.no_grad()
    def update(self):
        for name, param in self.model.named_parameters():
            self.shadow[name].mul_(self.decay).add_(param.detach(), alpha=1 - self.decay)

    @torch.no_grad()
    def apply_shadow(self):
        """Put the averaged weights into the model (e.g. for evaluation)."""
        for name, param in self.model.named_parameters():
            self.backup[name] = param  # expect: TEN402
            param.copy_(self.shadow[name])

    @torch.no_grad()
    def restore(self):
        for name, param in self.model.named_parameters():
            param.copy_(self.backup[name])
        self.backup = {}


class SimpleSWA:
    """Running equal-weight average of the weights seen after swa_start."""

    def __init__(self, model):
        self.model = model
        self.n_averaged = 0
        self.swa_params = None

    @torch.no_grad()
    def collect(self):
        if self.swa_params is None:
            self.swa_params = list(self.model.parameters())  # expect: TEN402
            self.n_averaged = 1
            return
        for swa_p, p in zip(self.swa_params, self.model.parameters()):
            swa_p.mul_(self.n_averaged / (self.n_averaged + 1)).add_(p / (self.n_averaged + 1))
        self.n_averaged += 1

    @torch.no_grad()
    def swap_in(self):
        for swa_p, p in zip(self.swa_params, self.model.parameters()):
            p.copy_(swa_p)


def run(steps=20, swa_start=10):
    torch.manual_seed(3)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ema = ParamEMA(model, decay=0.8)
    swa = SimpleSWA(model)
    x, y = torch.randn(32, 4), torch.randn(32, 2)
    for step in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        ema.update()
        if step >= swa_start:
            swa.collect()
    ema.apply_shadow()
    with torch.no_grad():
        ema_loss = nn.functional.mse_loss(model(x), y).item()
    ema.restore()
    with torch.no_grad():
        raw_loss = nn.functional.mse_loss(model(x), y).item()
    return model, ema, swa, ema_loss, raw_loss


if __name__ == "__main__":
    model, ema, swa, ema_loss, raw_loss = run()
    print("loss with EMA weights", round(ema_loss, 4))
    print("loss after restore", round(raw_loss, 4))
