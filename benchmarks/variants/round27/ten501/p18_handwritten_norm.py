"""Hand-written normalisation layers keeping running statistics in forward()."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class RunningNormLeaky(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean  # expect: TEN501
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var  # expect: TEN501
        else:
            mean, var = self.running_mean, self.running_var
        return self.scale * (x - mean) / torch.sqrt(var + 1e-5)


class RunningNorm(RunningNormLeaky):
    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)  # ok
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.detach()  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return self.scale * (x - mean) / torch.sqrt(var + 1e-5)


def build(norm_cls):
    return nn.Sequential(nn.Linear(5, 12), norm_cls(12), nn.ReLU(), nn.Linear(12, 1))


for cls in (RunningNormLeaky, RunningNorm):
    torch.manual_seed(0)
    net = build(cls)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(8):
        x = torch.randn(16, 5)
        loss = (net(x) - x[:, :1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    print(cls.__name__, round(loss.item(), 4), round(net[1].running_mean.sum().item(), 4),
          round(net(torch.randn(4, 5)).mean().item(), 4))
