"""Exponential moving average of weights with apply_shadow()/restore() around evaluation,
in the style found in many training repos (e.g. for ViT / diffusion / YOLO)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EMA:
    """Shadow initialised from the parameters; swap in/out with copy_."""

    def __init__(self, model, decay=0.9):
        self.model, self.decay = model, decay
        self.shadow = {n: p.data for n, p in model.named_parameters() if p.requires_grad}  # expect: TEN402
        self.backup = {}

    @torch.no_grad()
    def update(self):
        for n, p in self.model.named_parameters():
            self.shadow[n].mul_(self.decay).add_(p.data, alpha=1 - self.decay)

    def apply_shadow(self):
        for n, p in self.model.named_parameters():
            self.backup[n] = p.data.clone()
            p.data.copy_(self.shadow[n])

    def restore(self):
        for n, p in self.model.named_parameters():
            p.data.copy_(self.backup[n])


class EMACopyBackup(EMA):
    """Cloned shadow; backup taken right before the shadow is copied in."""

    def __init__(self, model, decay=0.9):
        self.model, self.decay = model, decay
        self.shadow = {n: p.data.clone() for n, p in model.named_parameters() if p.requires_grad}  # ok
        self.backup = {}

    def apply_shadow(self):
        for n, p in self.model.named_parameters():
            self.backup[n] = p.data  # expect: TEN402
            p.data.copy_(self.shadow[n])


class EMARebind(EMACopyBackup):
    """Swap in/out by rebinding `p.data` instead of copying."""

    def apply_shadow(self):
        for n, p in self.model.named_parameters():
            self.backup[n] = p.data  # ok
            p.data = self.shadow[n].clone()

    def restore(self):
        for n, p in self.model.named_parameters():
            p.data = self.backup[n]


def run(cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ema = cls(model)
    g = torch.Generator().manual_seed(9)
    x = torch.randn(200, 6, generator=g)
    y = x[:, :1] * x[:, 1:2]
    for step in range(60):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema.update()
        if step % 20 == 19:
            with torch.no_grad():
                live = F.mse_loss(model(x), y).item()
                ema.apply_shadow()
                ema_loss = F.mse_loss(model(x), y).item()
                ema.restore()
                back = F.mse_loss(model(x), y).item()
            print(f"  {cls.__name__:13s} step {step}: live={live:.5f} ema={ema_loss:.5f} after_restore={back:.5f}")


if __name__ == "__main__":
    for cls in (EMA, EMACopyBackup, EMARebind):
        run(cls)
