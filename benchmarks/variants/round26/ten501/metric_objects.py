"""torchmetrics-like stateful metric objects updated every batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Metric:
    def __init__(self):
        self.reset()

    def reset(self):
        raise NotImplementedError


class MeanAbsoluteError(Metric):
    def reset(self):
        self.preds, self.targets = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.targets.append(target)

    def compute(self):
        return (torch.cat(self.preds) - torch.cat(self.targets)).abs().mean()


class SumMetric(Metric):
    def reset(self):
        self.value = torch.tensor(0.0)
        self.n = 0

    def update(self, value, n=1):
        self.value += value * n
        self.n += n

    def compute(self):
        return self.value / self.n


class Accuracy(Metric):
    def reset(self):
        self.correct = 0
        self.total = 0

    def update(self, pred_labels, target):
        self.correct += (pred_labels == target).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total


reg = nn.Linear(4, 1)
clf = nn.Linear(4, 3)
opt = torch.optim.SGD(list(reg.parameters()) + list(clf.parameters()), lr=0.05)
mae, mae_ok = MeanAbsoluteError(), MeanAbsoluteError()
loss_sum, loss_sum_ok = SumMetric(), SumMetric()
acc = Accuracy()
for step in range(8):
    x = torch.randn(16, 4)
    y_reg = x.sum(1, keepdim=True)
    y_cls = x[:, :3].argmax(1)
    out_reg, out_cls = reg(x), clf(x)
    loss = nn.functional.mse_loss(out_reg, y_reg) + nn.functional.cross_entropy(out_cls, y_cls)
    opt.zero_grad()
    loss.backward()
    opt.step()
    mae.update(out_reg, y_reg)  # expect: TEN501
    mae_ok.update(out_reg.detach(), y_reg)  # ok
    loss_sum.update(loss, n=x.size(0))  # expect: TEN501
    loss_sum_ok.update(loss.detach(), n=x.size(0))  # ok
    acc.update(out_cls.argmax(-1), y_cls)  # ok
print("mae", round(mae.compute().item(), 4), round(mae_ok.compute().item(), 4))
print("loss", round(loss_sum.compute().item(), 4), round(loss_sum_ok.compute().item(), 4), "acc", round(acc.compute().item(), 4))
