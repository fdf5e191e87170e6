import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402

    @torch.no_grad()
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n].mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


class ModelEMAFixed(ModelEMA):
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok


def run(ema_cls):
    torch.manual_seed(1)
    model = nn.Linear(4, 2)
    ema = ema_cls(model, 0.8)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x = torch.randn(64, 4)
    t = torch.randn(64, 2)
    for _ in range(25):
        opt.zero_grad()
        ((model(x) - t) ** 2).mean().backward()
        opt.step()
        ema.update(model)
    live = ((model(x) - t) ** 2).mean().item()
    avg = ((nn.functional.linear(x, ema.shadow["weight"], ema.shadow["bias"]) - t) ** 2).mean().item()
    return live, avg


for cls in (ModelEMA, ModelEMAFixed):
    live, avg = run(cls)
    print(f"{cls.__name__}: live loss {live:.5f} ema loss {avg:.5f}")
