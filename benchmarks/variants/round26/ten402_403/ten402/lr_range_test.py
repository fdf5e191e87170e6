import copy
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def lr_find(model, optimizer, x, y, start_lr=1e-4, end_lr=1.0, num=30):
    init_state = model.state_dict()  # expect: TEN402
    init_opt = copy.deepcopy(optimizer.state_dict())  # ok
    gamma = (end_lr / start_lr) ** (1 / (num - 1))
    lr, lrs, losses = start_lr, [], []
    for _ in range(num):
        for g in optimizer.param_groups:
            g["lr"] = lr
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        lrs.append(lr)
        losses.append(loss.item())
        lr *= gamma
    # leave model and optimizer as they were
    model.load_state_dict(init_state)
    optimizer.load_state_dict(init_opt)
    best = min(range(num), key=lambda i: losses[i])
    return lrs[best] / 10


model = nn.Sequential(nn.Linear(3, 20), nn.ReLU(), nn.Linear(20, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(100, 3)
y = x.pow(2).sum(1, keepdim=True)
suggested = lr_find(model, optimizer, x, y)
print(f"suggested lr {suggested:.6g}")
for g in optimizer.param_groups:
    g["lr"] = suggested
for ep in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss after 20 steps {loss.item():.6f} (finite: {math.isfinite(loss.item())})")
