"""Exponential moving average of weights, evaluated by swapping the shadow in."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class ModelEMA:
    def __init__(self, model, decay=0.95, device=DEVICE):
        self.decay = decay
        self.shadow = {k: v.to(device) for k, v in model.state_dict().items() if v.dtype.is_floating_point}  # expect: TEN402
        self.backup = None

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if k in self.shadow:
                self.shadow[k].mul_(self.decay).add_(v.to(self.shadow[k].device), alpha=1 - self.decay)

    def apply_to(self, model):
        self.backup = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        model.load_state_dict(self.shadow, strict=False)

    def restore(self, model):
        model.load_state_dict(self.backup)
        self.backup = None


class ModelEMACopy(ModelEMA):
    def __init__(self, model, decay=0.95, device=DEVICE):
        super().__init__(model, decay, device)
        self.shadow = {k: v.to(device, copy=True) for k, v in model.state_dict().items() if v.dtype.is_floating_point}  # ok


def rings(n):
    r = torch.cat([torch.rand(n // 2) * 0.8, 1.2 + torch.rand(n - n // 2) * 0.8])
    a = torch.rand(n) * 6.283
    x = torch.stack([r * a.cos(), r * a.sin()], 1)
    return x, (r > 1.0).long()


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        loss = F.cross_entropy(model(x), y).item()
    model.train()
    return loss


def run(ema_cls):
    torch.manual_seed(6)
    x, y = rings(400)
    xv, yv = rings(200)
    model = nn.Sequential(nn.Linear(2, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2)).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    ema = ema_cls(model)
    for step in range(200):
        idx = torch.randint(0, 400, (32,))
        opt.zero_grad()
        F.cross_entropy(model(x[idx]), y[idx]).backward()
        opt.step()
        ema.update(model)
    live = evaluate(model, xv, yv)
    ema.apply_to(model)
    smoothed = evaluate(model, xv, yv)
    ema.restore(model)
    return live, smoothed, evaluate(model, xv, yv)


def main():
    for cls in (ModelEMA, ModelEMACopy):
        live, smoothed, back = run(cls)
        print(f"{cls.__name__:12s} live {live:.4f} ema {smoothed:.4f} after restore {back:.4f}")


if __name__ == "__main__":
    main()
