"""Custom modules that update running statistics / memory banks in forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class RunningNorm(nn.Module):
    """Hand-rolled normaliser; the running mean is updated from the live activations."""

    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))
        self.register_buffer("num_batches", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        if self.training:
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * x.mean(0)  # expect: TEN501
            self.running_var = (1 - m) * self.running_var + m * x.var(0).detach()  # ok
            self.num_batches += 1  # ok
        return (x - self.running_mean.detach()) / (self.running_var.sqrt() + 1e-5)


class CenterLoss(nn.Module):
    def __init__(self, n_cls, d):
        super().__init__()
        self.register_buffer("centers", torch.zeros(n_cls, d))
        self.register_buffer("centers_ok", torch.zeros(n_cls, d))

    def forward(self, feats, labels):
        loss = (feats - self.centers[labels].detach()).pow(2).sum(1).mean()
        for c in labels.unique():
            mask = labels == c
            self.centers[c] = 0.5 * self.centers[c] + 0.5 * feats[mask].mean(0)  # expect: TEN501
            with torch.no_grad():
                self.centers_ok[c] = 0.5 * self.centers_ok[c] + 0.5 * feats[mask].mean(0)  # ok
        return loss


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 8)
        self.norm = RunningNorm(8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        h = self.norm(F.relu(self.fc1(x)))
        return self.fc2(h), h


net = Net()
center = CenterLoss(3, 8)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(10):
    x, y = torch.randn(24, 5), torch.randint(0, 3, (24,))
    logits, feats = net(x)
    loss = F.cross_entropy(logits, y) + 0.01 * center(feats, y)
    opt.zero_grad()
    loss.backward()
    opt.step()

sd = net.state_dict()
print("running_mean", round(float(sd["norm.running_mean"].sum()), 5), int(sd["norm.num_batches"]))
print("centers", round(float(center.centers.abs().sum()), 4), round(float(center.centers_ok.abs().sum()), 4))
