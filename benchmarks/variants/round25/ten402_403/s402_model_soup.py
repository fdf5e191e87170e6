"""Uniform / greedy model soup from several fine-tuning runs of one base model."""
import torch
import torch.nn as nn


def make_task(seed, n=96):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = (x[:, :2].sum(1) + 0.4 * torch.randn(n, generator=g) > 0).long()
    return x, y


def finetune(model, data, lr, steps=25):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


@torch.no_grad()
def accuracy(model, data):
    x, y = data
    return (model(x).argmax(1) == y).float().mean().item()


def average(states):
    return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


torch.manual_seed(0)
base = nn.Sequential(nn.Linear(8, 24), nn.GELU(), nn.Linear(24, 2))
base_state = {k: v.clone() for k, v in base.state_dict().items()}  # ok
train, held = make_task(1), make_task(2)

ingredients = []
safe_ingredients = []
for lr in (0.05, 0.2, 0.6):
    base.load_state_dict(base_state)
    finetune(base, train, lr)
    print(f"lr={lr} acc={accuracy(base, held):.4f}")
    ingredients.append(base.state_dict())  # expect: TEN402
    safe_ingredients.append({k: v.clone() for k, v in base.state_dict().items()})  # ok

soup = nn.Sequential(nn.Linear(8, 24), nn.GELU(), nn.Linear(24, 2))
soup.load_state_dict(average(ingredients))
print(f"uniform soup acc={accuracy(soup, held):.4f} w0={soup[0].weight.sum().item():.5f}")
soup.load_state_dict(average(safe_ingredients))
print(f"safe soup acc={accuracy(soup, held):.4f} w0={soup[0].weight.sum().item():.5f}")
