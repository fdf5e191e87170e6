"""Custom normalisation layers that update running statistics inside forward()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LeakyRunningNorm(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.running_mean = torch.zeros(dim)

    def forward(self, x):
        if self.training:
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * x.mean(0)  # expect: TEN501
            return x - x.mean(0)
        return x - self.running_mean


class RunningNorm(nn.Module):
    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)  # ok
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.detach()  # ok
            self.num_batches_tracked += 1  # ok
            return (x - mean) / (var + 1e-5).sqrt()
        return (x - self.running_mean) / (self.running_var + 1e-5).sqrt()


class Net(nn.Module):
    def __init__(self, norm_cls):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.norm = norm_cls(12)
        self.fc2 = nn.Linear(12, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.norm(self.fc1(x))))


for norm_cls in (LeakyRunningNorm, RunningNorm):
    net = Net(norm_cls)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(5):
        x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    print(norm_cls.__name__, net(torch.randn(2, 6)).shape, net.norm.running_mean.requires_grad)
