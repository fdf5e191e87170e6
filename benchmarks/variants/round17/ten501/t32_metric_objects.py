"""torchmetrics-like stateful metric objects updated every batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Metric:
    def __init__(self):
        self.reset()

    def reset(self):
        self.preds, self.targets = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.targets.append(target)


class BinaryAUROC(Metric):
    def compute(self):
        p = torch.cat(self.preds)
        t = torch.cat(self.targets)
        pos, neg = p[t == 1], p[t == 0]
        return (pos[:, None] > neg[None, :]).float().mean()


class Accuracy(Metric):
    def compute(self):
        return (torch.cat(self.preds) == torch.cat(self.targets)).float().mean()


class MeanSquaredError:
    def __init__(self):
        self.sum_sq = torch.tensor(0.0)
        self.n = 0

    def update(self, preds, target):
        self.sum_sq = self.sum_sq + ((preds - target) ** 2).sum()
        self.n += target.numel()

    def compute(self):
        return self.sum_sq / self.n


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
auroc, auroc_epoch, acc = BinaryAUROC(), BinaryAUROC(), Accuracy()
mse_a, mse_b = MeanSquaredError(), MeanSquaredError()
epoch_scores = []

for epoch in range(2):
    for batch in range(5):
        x = torch.randn(12, 6)
        y = (x[:, 0] * x[:, 1] > 0).float()
        logits = model(x).squeeze(-1)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        probs = torch.sigmoid(logits)
        auroc.update(probs, y)  # expect: TEN501
        auroc_epoch.update(probs.detach(), y)  # ok
        acc.update((logits > 0).long(), y.long())  # ok
        mse_a.update(probs, y)  # expect: TEN501
        mse_b.update(probs.detach(), y)  # ok
    epoch_scores.append(auroc_epoch.compute())  # ok
    auroc_epoch.reset()

print([s.item() for s in epoch_scores], acc.compute().item(), float(mse_a.compute()), mse_b.compute().item())
