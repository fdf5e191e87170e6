import math

import torch
import torch.nn as nn

torch.manual_seed(0)


def fit(steps=14, beta=0.9):
    model = nn.Sequential(nn.Linear(4, 16), nn.Softplus(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    smoothed = 0.0
    smoothed_ok = 0.0
    sq_avg = 0.0
    best_smoothed = math.inf
    for step in range(1, steps + 1):
        x = torch.rand(32, 4)
        y = torch.sin(3 * x).sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        smoothed = beta * smoothed + (1 - beta) * loss  # expect: TEN501
        smoothed_ok = beta * smoothed_ok + (1 - beta) * loss.item()  # ok
        sq_avg = beta * sq_avg + (1 - beta) * loss ** 2  # expect: TEN501
        debiased = smoothed_ok / (1 - beta ** step)
        best_smoothed = min(best_smoothed, debiased)  # ok
        if step % 5 == 0:
            print(f"step {step:3d} raw {loss.item():.4f} smooth {debiased:.4f}")
    return float(smoothed), best_smoothed


print(fit())
