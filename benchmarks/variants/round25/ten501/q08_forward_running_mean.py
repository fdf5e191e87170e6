import torch
import torch.nn as nn

torch.manual_seed(0)


class CenteredHead(nn.Module):
    """Tracks a running mean of its features inside forward (no no_grad)."""

    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.register_buffer("running_mean", torch.zeros(d))
        self.momentum = 0.1

    def forward(self, x):
        h = self.proj(x)
        if self.training:
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * h.mean(0)  # expect: TEN501
        return h - self.running_mean


class CenteredHeadFixed(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_sq", torch.zeros(d))
        self.momentum = 0.1

    def forward(self, x):
        h = self.proj(x)
        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(h.mean(0), alpha=self.momentum)  # ok
            self.running_sq = (1 - self.momentum) * self.running_sq + self.momentum * h.detach().pow(2).mean(0)  # ok
        return h - self.running_mean


def run(head):
    opt = torch.optim.SGD(head.parameters(), lr=0.05)
    for step in range(8):
        x = torch.randn(16, 6) + 1.0
        out = head(x)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
    return loss.item(), head.running_mean.norm().item()


print("buggy:", run(CenteredHead(6)))
print("fixed:", run(CenteredHeadFixed(6)))
