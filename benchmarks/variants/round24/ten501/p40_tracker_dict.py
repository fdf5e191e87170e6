"""MetricTracker objects kept in a dict keyed by metric name (pytorch-template style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MetricTracker:
    def __init__(self):
        self.total = 0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n

    def avg(self):
        return self.total / self.count


def top1(output, target):
    return (output.argmax(1) == target).sum().item() / len(target)


def confidence(output):
    return output.softmax(1).max(1).values.mean()


model = nn.Sequential(nn.Linear(9, 18), nn.ReLU(), nn.Linear(18, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
trackers = {name: MetricTracker() for name in ("loss", "top1", "confidence", "confidence_ok")}
per_class_correct = torch.zeros(3, dtype=torch.long)
for epoch in range(2):
    for batch_idx in range(3):
        data, target = torch.randn(8, 9), torch.randint(0, 3, (8,))
        output = model(data)
        loss = F.nll_loss(F.log_softmax(output, 1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        trackers["loss"].update(loss, data.size(0))  # expect: TEN501
        trackers["top1"].update(top1(output, target), data.size(0))  # ok
        trackers["confidence"].update(confidence(output))  # expect: TEN501
        trackers["confidence_ok"].update(confidence(output).item())  # ok
        per_class_correct += torch.bincount(target[output.argmax(1) == target], minlength=3)  # ok
    print(epoch, {k: float(t.avg()) for k, t in trackers.items()}, per_class_correct.tolist())
