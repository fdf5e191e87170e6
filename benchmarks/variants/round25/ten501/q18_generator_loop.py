"""Generator-driven training: losses flow out of a generator and into a coroutine accumulator."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def batches(n_steps, bs=16):
    for _ in range(n_steps):
        x = torch.randn(bs, 3)
        yield x, (x ** 2).sum(1, keepdim=True)


def training_steps(model, opt, n_steps):
    for step, (x, y) in enumerate(batches(n_steps)):
        loss = nn.functional.l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield step, loss


def averager():
    total, count = 0.0, 0
    while True:
        value = yield (total / count if count else None)
        total = total + value
        count += 1


def main():
    model = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    epoch_losses = []
    acc, acc_ok = averager(), averager()
    next(acc), next(acc_ok)
    for step, loss in training_steps(model, opt, 12):
        epoch_losses.append(loss)  # expect: TEN501
        acc.send(loss)  # expect: TEN501
        acc_ok.send(loss.item())  # ok
    print("avg:", round(float(acc.send(0.0)), 4), round(acc_ok.send(0.0), 4), len(epoch_losses))


main()
