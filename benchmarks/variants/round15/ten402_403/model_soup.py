"""Uniform and greedy model soups from several fine-tuning runs of the same network."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(200, 12), torch.randint(0, 4, (200,))


def accuracy(model, sd=None):
    if sd is not None:
        model.load_state_dict(sd)
    with torch.no_grad():
        return (model(X[150:]).argmax(1) == Y[150:]).float().mean().item()


def finetune(model, lr, steps=15):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(X[:150]), Y[:150]).backward()
        opt.step()


def uniform_soup(model, lrs):
    base_state = copy.deepcopy(model.state_dict())  # ok
    ingredients = []
    for lr in lrs:
        model.load_state_dict(base_state)
        finetune(model, lr)
        ingredients.append(model.state_dict())  # expect: TEN402
    soup = {k: torch.stack([sd[k].float() for sd in ingredients]).mean(0) for k in ingredients[0]}  # ok
    return accuracy(model, soup)


def greedy_soup(model, lrs):
    base_state = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    ingredients = []
    for lr in lrs:
        model.load_state_dict(base_state)
        finetune(model, lr)
        ingredients.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
    ingredients.sort(key=lambda sd: accuracy(model, sd), reverse=True)
    soup, n = dict(ingredients[0]), 1  # ok
    best = accuracy(model, soup)
    for sd in ingredients[1:]:
        cand = {k: (soup[k] * n + sd[k]) / (n + 1) for k in soup}  # ok
        acc = accuracy(model, cand)
        if acc >= best:
            soup, n, best = cand, n + 1, acc
    return best


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4))
    lrs = [0.01, 0.03, 0.1]
    print("uniform soup acc", uniform_soup(copy.deepcopy(net), lrs))
    print("greedy soup acc", greedy_soup(copy.deepcopy(net), lrs))
