"""Training loop written as a generator; consumers accumulate what it yields."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def batches(n_steps, bs=16):
    for _ in range(n_steps):
        x = torch.randn(bs, 3)
        yield x, x.prod(1, keepdim=True)


def train_iter(model, opt, n_steps):
    """Yields the loss of every optimisation step."""
    for x, y in batches(n_steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss


def running_mean():
    """Coroutine: send values, receive the running mean."""
    total, count = 0.0, 0
    mean = None
    while True:
        value = yield mean
        total = total + value  # expect: TEN501
        count += 1
        mean = total / count


def running_mean_float():
    total, count = 0.0, 0
    mean = None
    while True:
        value = yield mean
        total = total + float(value)  # ok
        count += 1
        mean = total / count


model = nn.Sequential(nn.Linear(3, 24), nn.Tanh(), nn.Linear(24, 1))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
rm, rmf = running_mean(), running_mean_float()
next(rm)
next(rmf)
collected, collected_f = [], []
for step, loss in enumerate(train_iter(model, opt, 10)):
    collected.append(loss)  # expect: TEN501
    collected_f.append(loss.item())  # ok
    m = rm.send(loss)
    mf = rmf.send(loss)
print("mean", round(m.item(), 4), round(mf, 4), "last", round(collected_f[-1], 4), len(collected))
