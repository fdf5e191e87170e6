"""EMA of weights; validation runs with the EMA weights swapped in by a callback."""
import torch
from torch import nn

torch.manual_seed(0)


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok

    @torch.no_grad()
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n].mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)

    @torch.no_grad()
    def copy_to(self, model):
        # writes the averaged weights straight into the live parameters
        for n, p in model.named_parameters():
            p.data.copy_(self.shadow[n])


class EMAValidationCallback:
    """Swap EMA weights in for validation, swap the training weights back after."""

    def __init__(self, ema):
        self.ema = ema
        self.backup = None

    def on_validation_start(self, model):
        self.backup = {n: p.data for n, p in model.named_parameters()}  # expect: TEN402
        self.ema.copy_to(model)

    def on_validation_end(self, model):
        with torch.no_grad():
            for n, p in model.named_parameters():
                p.copy_(self.backup[n])
        self.backup = None


model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 1))
ema = ModelEMA(model, decay=0.8)
cb = EMAValidationCallback(ema)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(64, 4)
y = torch.sin(x.sum(1, keepdim=True))
xv = torch.randn(32, 4)
yv = torch.sin(xv.sum(1, keepdim=True))

for epoch in range(4):
    for _ in range(10):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        ema.update(model)
    train_w = model[2].weight.detach().clone()  # ok
    cb.on_validation_start(model)
    with torch.no_grad():
        val = ((model(xv) - yv) ** 2).mean().item()
    cb.on_validation_end(model)
    back = (model[2].weight - train_w).abs().max().item()
    print(f"epoch {epoch}: ema val {val:.5f}; training weights restored, max diff {back:.6f}")

print("final head weight:", [round(v, 4) for v in model[2].weight.flatten().tolist()])
