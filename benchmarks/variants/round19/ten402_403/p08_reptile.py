"""Reptile meta-learning outer update."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
meta_lr, inner_lr = 0.5, 0.05


def sample_task():
    a, ph = torch.rand(1) * 2 + 0.5, torch.rand(1) * 3
    x = torch.rand(20, 1) * 6 - 3
    return x, a * torch.sin(x + ph)


for it in range(6):
    old_weights = [p.data for p in model.parameters()]  # expect: TEN402
    old_weights_ok = [p.data.clone() for p in model.parameters()]  # ok
    x, y = sample_task()
    inner = torch.optim.SGD(model.parameters(), lr=inner_lr)
    for _ in range(5):
        inner.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        inner.step()
    naive_step = sum((p.data - w).norm().item() for p, w in zip(model.parameters(), old_weights))
    with torch.no_grad():
        for p, w in zip(model.parameters(), old_weights_ok):
            p.copy_(w + meta_lr * (p - w))
    print(f"it={it} naive meta-step={naive_step:.4f}")
