"""torchmetrics-like metric objects that differ in what they store."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CatMetric:
    """Stores predictions for an epoch-level computation (like AUROC)."""

    def __init__(self):
        self.preds, self.target = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.target.append(target)


class Accuracy:
    """Only stores integer counts."""

    def __init__(self):
        self.correct = torch.tensor(0)
        self.total = 0

    def update(self, preds, target):
        self.correct += (preds.argmax(-1) == target).sum()
        self.total += target.numel()


torch.manual_seed(0)
model = nn.Linear(6, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
auroc_like, auroc_ok, acc = CatMetric(), CatMetric(), Accuracy()
for step in range(4):
    x, y = torch.randn(5, 6), torch.randint(0, 3, (5,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    probs = logits.softmax(-1)
    auroc_like.update(probs, y)  # expect: TEN501
    auroc_ok.update(probs.detach(), y)  # ok
    acc.update(probs, y)  # ok
print(len(auroc_like.preds), len(auroc_ok.preds), acc.correct.item() / acc.total)
