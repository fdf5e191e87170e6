"""Hand-written normalisation layers that track running statistics."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class RunningNorm(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean  # expect: TEN501
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.detach()  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + 1e-5)


class SafeRunningNorm(RunningNorm):
    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)  # ok
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var)  # ok
            return (x - mean) / torch.sqrt(var + 1e-5)
        return super().forward(x)


class ScaleTracker(nn.Module):
    """Tracks an activation scale as a plain python attribute."""

    def __init__(self):
        super().__init__()
        self.scale = 1.0
        self.peak = 0.0

    def forward(self, x):
        self.scale = 0.9 * self.scale + 0.1 * x.abs().mean()  # expect: TEN501
        self.peak = max(self.peak, x.abs().max().item())  # ok
        return x


for Norm in (RunningNorm, SafeRunningNorm):
    torch.manual_seed(0)
    tracker = ScaleTracker()
    net = nn.Sequential(nn.Linear(4, 8), Norm(8), nn.ReLU(), tracker, nn.Linear(8, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(8):
        x = torch.randn(16, 4) * 2 + 1
        loss = (net(x) - x[:, :1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    with torch.no_grad():
        ev = (net(torch.randn(16, 4) * 2 + 1)).mean().item()
    print(Norm.__name__, round(loss.item(), 4), net[1].running_mean[:3].tolist(), round(float(tracker.scale), 4), round(ev, 4))
