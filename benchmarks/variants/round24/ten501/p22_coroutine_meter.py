"""Running averages implemented as generator coroutines (send-based meters)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def running_average():
    total, n = 0, 0
    avg = None
    while True:
        value = yield avg
        total += value
        n += 1
        avg = total / n


def windowed(k=3):
    window = []
    out = None
    while True:
        v = yield out
        window = (window + [v])[-k:]
        out = sum(window) / len(window)


model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
avg = running_average()
next(avg)
avg_ok = running_average()
next(avg_ok)
win = windowed()
next(win)
for step in range(6):
    x, y = torch.randn(9, 6), torch.randn(9, 1)
    pred = model(x)
    loss = F.smooth_l1_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    avg.send(loss)  # expect: TEN501
    avg_ok.send(loss.item())  # ok
    smooth = win.send(pred.mean())  # expect: TEN501
print(float(avg.send(0.0)), avg_ok.send(0.0), float(smooth))
