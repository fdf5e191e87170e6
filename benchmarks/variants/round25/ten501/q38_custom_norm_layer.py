import torch
import torch.nn as nn

torch.manual_seed(0)


class RunningNorm(nn.Module):
    """Hand-written batch-norm-like layer."""

    def __init__(self, d, momentum=0.1, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))
        self.register_buffer("running_var", torch.ones(d))
        self.register_buffer("running_mean", torch.zeros(d))
        self.num_batches_tracked = 0
        self.momentum, self.eps = momentum, eps
        self.batch_means = []

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var  # expect: TEN501
            with torch.no_grad():
                self.running_mean.lerp_(mean, self.momentum)  # ok
            self.num_batches_tracked += 1  # ok
            self.batch_means.append(mean)  # expect: TEN501
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


model = nn.Sequential(nn.Linear(6, 12), RunningNorm(12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(10):
    x = torch.randn(32, 6)
    loss = (model(x).squeeze(1) - x[:, 0]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    test = model(torch.randn(5, 6))
print("loss", round(loss.item(), 4), "tracked", model[1].num_batches_tracked, "test", [round(v, 3) for v in test.squeeze(1).tolist()])
