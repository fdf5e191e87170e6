"""Step-budgeted training with `while`, gradient accumulation and smoothed logging."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F


def data_stream(bs=8):
    while True:
        x = torch.randn(bs, 10)
        yield x, x.sum(1, keepdim=True)


def train_budget(max_steps=12, accum=3):
    model = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    stream = data_stream()
    step = 0
    smooth_loss = None
    window_loss = 0.0
    epoch_sum = torch.zeros(())
    best = float("inf")
    while step < max_steps:
        x, y = next(stream)
        loss = F.mse_loss(model(x), y) / accum
        loss.backward()
        window_loss += loss.detach()  # ok
        if (step + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
            window_loss = 0.0
        smooth_loss = loss if smooth_loss is None else 0.98 * smooth_loss + 0.02 * loss  # expect: TEN501
        epoch_sum = torch.add(epoch_sum, loss)  # expect: TEN501
        best = min(best, loss.item())  # ok
        step += 1
    return smooth_loss, epoch_sum


def train_scaled(max_steps=9, accum=3):
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    i = 0
    running = 0
    for x, y in itertools.islice(data_stream(), max_steps):
        out = model(x)
        loss = F.l1_loss(out, y)
        (loss / accum).backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
        running += loss * x.size(0)  # expect: TEN501
        i += 1
    return running


def train_accum_graph(max_steps=9, accum=3):
    """Correct: the accumulator itself is differentiated and reset."""
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    acc_loss = 0
    logged = []
    for i, (x, y) in enumerate(itertools.islice(data_stream(), max_steps)):
        acc_loss = acc_loss + F.mse_loss(model(x), y) / accum  # ok
        if (i + 1) % accum == 0:
            acc_loss.backward()
            opt.step()
            opt.zero_grad()
            logged.append(acc_loss.detach())  # ok
            acc_loss = 0
    return logged


def train_gen(model, opt, steps):
    for x, y in itertools.islice(data_stream(), steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        yield loss


def drive_generator(steps=6):
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    total = 0.0
    for loss in train_gen(model, opt, steps):
        total += loss  # expect: TEN501
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    s, e = train_budget()
    print("smooth:", s.grad_fn, "epoch_sum:", e.grad_fn)
    print("scaled running:", train_scaled().grad_fn)
    print("accum graph logged:", train_accum_graph()[0].grad_fn)
    print("generator total:", drive_generator().grad_fn)
