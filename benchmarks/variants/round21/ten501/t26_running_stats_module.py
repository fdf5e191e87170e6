"""Custom nn.Modules that keep running statistics in buffers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class RunningNorm(nn.Module):
    """Hand-rolled batch norm: running stats updated from the live batch statistics."""

    def __init__(self, dim, momentum=0.1, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))

    def forward(self, x):
        if self.training:
            mean = x.mean(0)
            var = x.var(0, unbiased=False)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean  # expect: TEN501
            self.running_var.mul_(1 - self.momentum).add_(self.momentum * var)  # expect: TEN501
            self.num_batches_tracked += 1  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class RunningNormFixed(RunningNorm):
    def forward(self, x):
        if self.training:
            mean = x.mean(0)
            var = x.var(0, unbiased=False)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)  # ok
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.detach()  # ok
            self.num_batches_tracked += 1
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps)


class ActivationMonitor(nn.Module):
    """Identity layer that records the mean activation norm of every forward pass."""

    def __init__(self):
        super().__init__()
        self.register_buffer("norms", torch.empty(0))
        self.register_buffer("norms_ok", torch.empty(0))

    def forward(self, x):
        if self.training:
            self.register_buffer("norms", torch.cat([self.norms, x.norm(dim=1).mean().view(1)]))  # expect: TEN501
            self.norms_ok = torch.cat([self.norms_ok, x.detach().norm(dim=1).mean().view(1)])  # ok
        return x


def make(norm_cls):
    return nn.Sequential(nn.Linear(6, 24), norm_cls(24), nn.ReLU(), ActivationMonitor(), nn.Linear(24, 1))


x = torch.randn(240, 6) * 3 + 1
y = (x[:, :3].sum(1, keepdim=True) > 3).float()
for norm_cls in (RunningNorm, RunningNormFixed):
    model = make(norm_cls)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for i in range(0, 240, 30):
            loss = F.binary_cross_entropy_with_logits(model(x[i:i + 30]), y[i:i + 30])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        acc = ((model(x) > 0).float() == y).float().mean().item()
    bn, mon = model[1], model[3]
    print(f"{norm_cls.__name__:17s} acc {acc:.3f} running_mean[0] {bn.running_mean[0].item():.3f} "
          f"batches {int(bn.num_batches_tracked)} monitor {mon.norms.shape[0]} {mon.norms_ok.mean().item():.3f} "
          f"mean has grad_fn: {bn.running_mean.grad_fn is not None}")
