"""Stochastic weight averaging: running average of weights over late epochs."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class SWA:
    def __init__(self):
        self.n = 0
        self.avg = None

    @torch.no_grad()
    def update(self, model):
        if self.avg is None:
            self.avg = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        else:
            for k, v in model.state_dict().items():
                self.avg[k].mul_(self.n / (self.n + 1)).add_(v / (self.n + 1))
        self.n += 1


class LeakySWA:
    """Same idea, but the first average is the live state dict."""

    def __init__(self):
        self.n = 0
        self.avg = None

    @torch.no_grad()
    def update(self, model):
        if self.avg is None:
            self.avg = dict(model.state_dict())  # expect: TEN402
        else:
            for k, v in model.state_dict().items():
                self.avg[k].mul_(self.n / (self.n + 1)).add_(v / (self.n + 1))
        self.n += 1


def run(swa):
    torch.manual_seed(1)
    model = nn.Linear(3, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    x = torch.randn(50, 3)
    y = torch.randn(50, 2)
    for epoch in range(10):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch >= 5:
            swa.update(model)
    live = model.weight.sum().item()
    model.load_state_dict(swa.avg)
    with torch.no_grad():
        return live, nn.functional.mse_loss(model(x), y).item()


if __name__ == "__main__":
    a = run(SWA())
    b = run(LeakySWA())
    print(f"swa: live {a[0]:.6f} loss {a[1]:.6f}")
    print(f"leaky: live {b[0]:.6f} loss {b[1]:.6f}")
