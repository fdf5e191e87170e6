"""torchmetrics-like stateful metrics fed from the training loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Metric:
    def __init__(self):
        self.reset()

    def reset(self):
        raise NotImplementedError


class MeanMetric(Metric):
    def reset(self):
        self.total = torch.tensor(0.0)
        self.count = 0

    def update(self, value):
        self.total = self.total + value
        self.count += 1

    def compute(self):
        return self.total / max(self.count, 1)


class CatMetric(Metric):
    def reset(self):
        self.preds, self.targets = [], []

    def update(self, preds, targets):
        self.preds.append(preds)
        self.targets.append(targets)

    def compute(self):
        p, t = torch.cat(self.preds), torch.cat(self.targets)
        return (p.argmax(-1) == t).float().mean()


class ConfusionMatrix(Metric):
    def __init__(self, n):
        self.n = n
        super().__init__()

    def reset(self):
        self.mat = torch.zeros(2, 2, dtype=torch.long)

    def update(self, preds, target):
        idx = target * self.n + preds.argmax(-1)
        self.mat += torch.bincount(idx, minlength=self.n * self.n).view(self.n, self.n)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    mean_bad, mean_ok = MeanMetric(), MeanMetric()
    acc_bad, acc_ok, cm = CatMetric(), CatMetric(), ConfusionMatrix(2)
    for step in range(5):
        x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        mean_bad.update(loss)  # expect: TEN501
        mean_ok.update(loss.detach())  # ok
        acc_bad.update(logits.softmax(-1), y)  # expect: TEN501
        acc_ok.update(logits.detach().softmax(-1), y)  # ok
        cm.update(logits, y)  # ok
    print(float(mean_bad.compute()), float(mean_ok.compute()), float(acc_bad.compute()), float(acc_ok.compute()), cm.mat.tolist())


if __name__ == "__main__":
    main()
