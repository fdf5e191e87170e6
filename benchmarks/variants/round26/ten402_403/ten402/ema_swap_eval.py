import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelEMA:
    def __init__(self, model, decay=0.95):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        self.backup = {}

    @torch.no_grad()
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n].lerp_(p.detach(), 1 - self.decay)

    def apply_shadow(self, model):
        for n, p in model.named_parameters():
            self.backup[n] = p.data  # expect: TEN402
            p.data.copy_(self.shadow[n])

    def restore(self, model):
        for n, p in model.named_parameters():
            p.data.copy_(self.backup[n])
        self.backup = {}


model = nn.Sequential(nn.Linear(9, 18), nn.SiLU(), nn.Linear(18, 3))
ema = ModelEMA(model)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
X = torch.randn(150, 9)
Y = (X[:, :3] * X[:, 3:6]).argmax(1)
for epoch in range(6):
    for i in range(0, 150, 30):
        opt.zero_grad()
        nn.functional.cross_entropy(model(X[i:i + 30]), Y[i:i + 30]).backward()
        opt.step()
        ema.update(model)
    ema.apply_shadow(model)
    with torch.no_grad():
        ema_loss = nn.functional.cross_entropy(model(X), Y).item()
    ema.restore(model)
    with torch.no_grad():
        raw_loss = nn.functional.cross_entropy(model(X), Y).item()
    print(f"epoch {epoch}: raw {raw_loss:.6f} ema {ema_loss:.6f}")
