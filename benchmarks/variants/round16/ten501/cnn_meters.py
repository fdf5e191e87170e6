"""Small CNN on random 'images' with running-average meters for the console."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RunningAverage:
    def __init__(self, label, spec=".4f"):
        self.label, self.spec = label, spec
        self.clear()

    def clear(self):
        self.last = 0.0
        self.total = 0.0
        self.weight = 0

    def update(self, value, n=1):
        self.last = value
        self.total += value * n
        self.weight += n

    @property
    def mean(self):
        return self.total / max(self.weight, 1)

    def __format__(self, _):
        return f"{self.label} {float(self.last):{self.spec}} (avg {float(self.mean):{self.spec}})"


def show(prefix, step, n_steps, *meters):
    print(f"{prefix} {step:>3}/{n_steps} | " + " | ".join(format(m) for m in meters))


def topk_hits(logits, labels, k=1):
    with torch.no_grad():
        top = logits.topk(k, dim=1).indices
        hit = (top == labels.unsqueeze(1)).any(dim=1).float()
        return hit.mean() * 100.0


class SmallCNN(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.out = nn.Linear(16 * 4 * 4, n_cls)

    def forward(self, img):
        img = F.max_pool2d(F.relu(self.c1(img)), 2)
        img = F.max_pool2d(F.relu(self.c2(img)), 2)
        return self.out(img.flatten(1))


def image_stream(n_steps, bs=16, n_cls=5, seed=1):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_steps):
        yield torch.randn(bs, 3, 16, 16, generator=g), torch.randint(0, n_cls, (bs,), generator=g)


def train_epoch(model, stream, n_steps, loss_fn, opt, epoch):
    timer, loss_meter, acc_meter = RunningAverage("time", ".3f"), RunningAverage("loss"), RunningAverage("acc@1", ".1f")
    model.train()
    tic = time.time()
    for step, (imgs, labels) in enumerate(stream):
        logits = model(imgs)
        loss = loss_fn(logits, labels)
        acc = topk_hits(logits, labels)
        loss_meter.update(loss, imgs.size(0))  # expect: TEN501
        acc_meter.update(acc, imgs.size(0))  # ok

        opt.zero_grad()
        loss.backward()
        opt.step()

        timer.update(time.time() - tic)  # ok
        tic = time.time()
        if step % 4 == 0:
            show(f"train[{epoch}]", step + 1, n_steps, timer, loss_meter, acc_meter)
    return loss_meter.mean


def test_epoch(model, stream, n_steps, loss_fn):
    loss_meter, acc_meter = RunningAverage("loss"), RunningAverage("acc@1", ".1f")
    model.eval()
    with torch.no_grad():
        for imgs, labels in stream:
            logits = model(imgs)
            loss_meter.update(loss_fn(logits, labels), imgs.size(0))  # ok
            acc_meter.update(topk_hits(logits, labels), imgs.size(0))  # ok
    show("test", n_steps, n_steps, loss_meter, acc_meter)
    return acc_meter.mean


def main():
    model = SmallCNN()
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    best = 0.0
    for epoch in range(2):
        train_epoch(model, image_stream(8), 8, loss_fn, opt, epoch)
        acc = test_epoch(model, image_stream(3, seed=9), 3, loss_fn)
        best = max(acc.item(), best)  # ok
    print("best acc@1", best)


if __name__ == "__main__":
    main()
