"""Training expressed as generators that yield per-step records."""
from collections import defaultdict, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

StepRecord = namedtuple("StepRecord", "epoch step loss lr")


def train_steps(model, opt, data, epochs):
    for epoch in range(epochs):
        for step, (x, y) in enumerate(data):
            loss = F.l1_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            yield StepRecord(epoch, step, loss, opt.param_groups[0]["lr"])


def scalar_steps(model, opt, data, epochs):
    for rec in train_steps(model, opt, data, epochs):
        yield rec._replace(loss=rec.loss.item())


def eval_losses(model, data):
    model.eval()
    with torch.inference_mode():
        for x, y in data:
            yield F.l1_loss(model(x), y)


def make_data(n_batches=3, bs=8, d=4):
    w = torch.randn(d, 1)
    out = []
    for _ in range(n_batches):
        x = torch.randn(bs, d)
        out.append((x, x @ w))
    return out


def new_model(d=4):
    m = nn.Sequential(nn.Linear(d, 8), nn.ReLU(), nn.Linear(8, 1))
    return m, torch.optim.SGD(m.parameters(), lr=0.05)


def main():
    torch.manual_seed(0)
    data, val_data = make_data(), make_data(2)

    model, opt = new_model()
    records, by_epoch = [], {}
    for rec in train_steps(model, opt, data, epochs=2):
        records.append(rec)  # expect: TEN501
        by_epoch.setdefault(rec.epoch, []).append(rec.loss)  # expect: TEN501
    val_hist = []
    val_hist.extend(eval_losses(model, val_data))  # ok

    model2, opt2 = new_model()
    clean, totals, counts = [], defaultdict(float), defaultdict(int)
    for rec in scalar_steps(model2, opt2, data, epochs=2):
        clean.append(rec)  # ok
        totals[rec.epoch] += rec.loss  # ok
        counts[rec.epoch] += 1
    means = {e: totals[e] / counts[e] for e in totals}

    model3, opt3 = new_model()
    last_by_step, epoch_tail = {}, None
    for rec in train_steps(model3, opt3, data, epochs=2):
        last_by_step[rec.step] = rec.loss.detach()  # ok
        epoch_tail = rec.loss if rec.step == 0 else epoch_tail + rec.loss  # expect: TEN501
    print(len(records), {e: len(v) for e, v in by_epoch.items()}, means, len(val_hist))


if __name__ == "__main__":
    main()
