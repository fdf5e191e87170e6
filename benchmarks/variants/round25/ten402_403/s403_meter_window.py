"""Per-metric sliding-window meter used in a training loop."""
import torch
import torch.nn as nn


class WindowMeter:
    def __init__(self, n_metrics, window):
        self.win = torch.full((n_metrics, window), float("nan"))
        self.last_epoch = torch.full((n_metrics, window), float("nan"))

    def update(self, values):
        self.win[:, 1:].copy_(self.win[:, :-1])  # expect: TEN403
        self.win[:, 0].copy_(values)  # ok

    def end_epoch(self):
        self.last_epoch[:, 1:].copy_(self.win[:, :-1])  # ok
        self.last_epoch[:, 0].copy_(self.win[:, 0])  # ok

    def mean(self):
        return torch.nanmean(self.win, dim=1)


torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
meter = WindowMeter(2, 5)
x, y = torch.randn(64, 4), torch.randn(64, 1)
for step in range(12):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    gnorm = model.weight.grad.norm()
    opt.step()
    meter.update(torch.stack([loss.detach(), gnorm]))
    if step % 4 == 3:
        meter.end_epoch()
        print(f"step {step} window mean loss {meter.mean()[0].item():.6f} grad {meter.mean()[1].item():.6f}")
print("window", [round(v, 5) for v in meter.win[0].tolist()])
