"""Stateful metric objects with update()/compute(), torchmetrics-style."""
import torch
import torch.nn as nn


class Metric:
    def __init__(self):
        self.reset()

    def reset(self):
        raise NotImplementedError


class Accuracy(Metric):
    def reset(self):
        self.correct = torch.tensor(0)
        self.total = torch.tensor(0)

    def update(self, preds, target):
        self.correct += (preds.argmax(1) == target).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total


class MeanSquaredError(Metric):
    def reset(self):
        self.sum_squared_error = torch.tensor(0.0)
        self.n_obs = 0

    def update(self, preds, target):
        self.sum_squared_error = self.sum_squared_error + ((preds - target) ** 2).sum()
        self.n_obs += target.numel()

    def compute(self):
        return self.sum_squared_error / self.n_obs


class MeanMetric(Metric):
    def reset(self):
        self.value = torch.tensor(0.0)
        self.weight = 0

    def update(self, value, weight=1):
        self.value += value.detach() * weight
        self.weight += weight

    def compute(self):
        return self.value / self.weight


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(6, 16)
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 1)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.cls(h), self.reg(h).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TwoHead()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    acc_metric, mse_metric, mean_loss = Accuracy(), MeanSquaredError(), MeanMetric()
    for epoch in range(2):
        for _ in range(4):
            x, yc, yr = torch.randn(8, 6), torch.randint(0, 3, (8,)), torch.randn(8)
            logits, reg = model(x)
            loss = nn.functional.cross_entropy(logits, yc) + nn.functional.mse_loss(reg, yr)
            opt.zero_grad()
            loss.backward()
            opt.step()
            acc_metric.update(logits, yc)  # ok
            mse_metric.update(reg, yr)  # expect: TEN501
            mean_loss.update(loss, weight=len(x))  # ok
        print(epoch, acc_metric.compute().item(), float(mse_metric.compute()), mean_loss.compute().item())
        acc_metric.reset()
        mean_loss.reset()
