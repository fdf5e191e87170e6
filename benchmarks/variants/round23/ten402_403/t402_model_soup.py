"""Uniform model soup: fine-tune one base model with several learning rates and average."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)

base = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
base_state = copy.deepcopy(base.state_dict())  # ok
x = torch.randn(64, 6)
y = torch.randint(0, 2, (64,))


def finetune(model, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(4):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


def cook(ingredients):
    soup = {}
    for key in ingredients[0]:
        soup[key] = sum(ing[key] for ing in ingredients) / len(ingredients)
    return soup


worker = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
ingredients = []
for lr in (0.01, 0.1, 0.5):
    worker.load_state_dict(base_state)
    finetune(worker, lr)
    ingredients.append({k: v for k, v in worker.state_dict().items()})  # expect: TEN402
soup_model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
soup_model.load_state_dict(cook(ingredients))
with torch.no_grad():
    acc = (soup_model(x).argmax(1) == y).float().mean().item()
print("soup checksum: %.6f" % sum(v.sum().item() for v in soup_model.state_dict().values()))
print("soup acc: %.4f" % acc)

# a soup built from separate model objects: each state_dict belongs to a model
# that is never touched again, so no copy is needed
ingredients2 = []
for lr in (0.01, 0.1, 0.5):
    m = copy.deepcopy(base)
    finetune(m, lr)
    ingredients2.append(m.state_dict())  # ok
soup2 = cook(ingredients2)
print("soup2 checksum: %.6f" % sum(v.sum().item() for v in soup2.values()))
