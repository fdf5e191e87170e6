import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def sample_task():
    amp = torch.empty(1).uniform_(0.5, 2.0)
    phase = torch.empty(1).uniform_(0, math.pi)
    x = torch.linspace(-3, 3, 25)[:, None]
    return x, amp * torch.sin(x + phase)


model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
init_w = [p.detach().clone() for p in model.parameters()]  # ok
inner_opt = torch.optim.SGD(model.parameters(), lr=0.02)
meta_lr = 0.5

for it in range(30):
    x, y = sample_task()
    old = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
    for _ in range(5):
        inner_opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        inner_opt.step()
    with torch.no_grad():
        for n, p in model.named_parameters():
            p.copy_(old[n] + meta_lr * (p - old[n]))
    if it % 5 == 4:
        d = sum((p - w0).pow(2).sum() for p, w0 in zip(model.parameters(), init_w)).sqrt()
        print(f"meta-iter {it} dist from init {d.item():.5f}")

x, y = sample_task()
with torch.no_grad():
    print(f"zero-shot loss on new task {nn.functional.mse_loss(model(x), y).item():.5f}")
