"""A hand-written batch-norm layer for a small MLP, with running statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MyBatchNorm1d(nn.Module):
    def __init__(self, num_features, momentum=0.1, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))
        self.register_buffer("num_batches_tracked", torch.tensor(0))

    def forward(self, x):
        if self.training:
            mean = x.mean(0)
            var = x.var(0, unbiased=False)
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * mean  # expect: TEN501
            with torch.no_grad():
                n = x.size(0)
                self.running_var.mul_(1 - m).add_(var * n / (n - 1), alpha=m)  # ok
            self.num_batches_tracked += 1  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.bn = MyBatchNorm1d(32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def main(epochs=2, bs=16):
    torch.manual_seed(0)
    x = torch.randn(128, 10) * 2 + 1
    y = (x[:, :3] - x[:, 3:6]).argmax(1)
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        net.train()
        for i in range(0, 128, bs):
            loss = F.cross_entropy(net(x[i:i + bs]), y[i:i + bs])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            acc = (net(x).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch}: loss={loss.item():.4f} eval acc={acc:.3f} "
              f"tracked={int(net.bn.num_batches_tracked)}")


if __name__ == "__main__":
    main()
