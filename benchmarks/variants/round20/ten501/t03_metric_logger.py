"""MetricLogger / SmoothedValue in the style of detection reference scripts."""
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SmoothedValue:
    def __init__(self, window=50):
        self.deque = deque(maxlen=window)
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def global_avg(self):
        return float(self.total) / self.count


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)

    def summary(self):
        return {k: round(m.global_avg, 4) for k, m in self.meters.items()}


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 12)
        self.cls = nn.Linear(12, 3)
        self.box = nn.Linear(12, 4)

    def forward(self, x):
        h = F.relu(self.body(x))
        return self.cls(h), self.box(h)


model = TwoHead()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
logger = MetricLogger()
clean_logger = MetricLogger()

for it in range(15):
    x = torch.randn(10, 6)
    y = torch.randint(0, 3, (10,))
    boxes = torch.randn(10, 4)
    logits, pred_boxes = model(x)
    loss_dict = {
        "loss_cls": F.cross_entropy(logits, y),
        "loss_box": F.smooth_l1_loss(pred_boxes, boxes),
    }
    loss = sum(loss_dict.values())
    opt.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    lr = opt.param_groups[0]["lr"]
    acc = (logits.argmax(1) == y).float().mean()

    logger.update(loss=loss, lr=lr)  # expect: TEN501
    logger.update(**loss_dict)  # expect: TEN501
    logger.update(grad_norm=grad_norm, acc=acc)  # ok
    clean_logger.update(**{k: v.detach() for k, v in loss_dict.items()})  # ok
    clean_logger.update(loss=loss.item(), lr=lr)  # ok

print("logger", logger.summary())
print("clean", clean_logger.summary())
