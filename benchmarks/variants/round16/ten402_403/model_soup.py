import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

LRS = (0.01, 0.03, 0.1, 0.3)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] ** 2 - x[:, 2] > 0.3).long()
    return x, y


def finetune(model, lr, x, y, steps=60):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for i in range(steps):
        idx = torch.randint(0, len(x), (32,))
        opt.zero_grad()
        F.cross_entropy(model(x[idx]), y[idx]).backward()
        opt.step()


def collect_ingredients(model, base, x, y):
    ingredients = []
    for lr in LRS:
        model.load_state_dict(base)
        finetune(model, lr, x, y)
        ingredients.append(model.state_dict())  # expect: TEN402
    return ingredients


def collect_ingredients_copied(model, base, x, y):
    ingredients = []
    for lr in LRS:
        model.load_state_dict(base)
        finetune(model, lr, x, y)
        ingredients.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok
    return ingredients


def uniform_soup(ingredients):
    return {k: torch.stack([ing[k] for ing in ingredients]).mean(0) for k in ingredients[0]}


def spread(ingredients):
    w = torch.stack([ing["0.weight"].flatten() for ing in ingredients])
    return (w - w.mean(0)).norm().item()


def main():
    x, y = make_split(400, 1)
    xv, yv = make_split(200, 2)
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
    finetune(model, 0.05, x, y, steps=100)
    base = copy.deepcopy(model.state_dict())  # ok
    for collect in (collect_ingredients, collect_ingredients_copied):
        ings = collect(model, base, x, y)
        model.load_state_dict(uniform_soup(ings))
        with torch.no_grad():
            acc = (model(xv).argmax(1) == yv).float().mean().item()
        print(f"{collect.__name__:27s} ingredient spread {spread(ings):.4f} soup acc {acc:.3f}")


if __name__ == "__main__":
    main()
