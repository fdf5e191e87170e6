"""Uniform model soup (Wortsman et al., 2022): fine-tune the same pretrained
model with several learning rates and average the resulting weights."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def finetune(model, x, y, lr, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return model


def uniform_soup(states):
    keys = states[0].keys()
    return {k: sum(sd[k].float() for sd in states) / len(states) for k in keys}


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def cook(model, x, y, x_val, y_val, lrs=(0.01, 0.03, 0.1)):
    base = copy.deepcopy(model.state_dict())  # ok
    ingredients, scores = [], []
    for lr in lrs:
        model.load_state_dict(base)
        finetune(model, x, y, lr)
        scores.append(accuracy(model, x_val, y_val))
        ingredients.append(model.state_dict())  # expect: TEN402
    soup = uniform_soup(ingredients)
    model.load_state_dict(soup)
    print("ingredient acc:", [round(s, 3) for s in scores], "soup acc:", round(accuracy(model, x_val, y_val), 3))
    return model, ingredients


if __name__ == "__main__":
    torch.manual_seed(0)
    x, x_val = torch.randn(96, 12), torch.randn(64, 12)
    w = torch.randn(12, 3)
    y, y_val = (x @ w).argmax(1), (x_val @ w).argmax(1)
    net = nn.Sequential(nn.Linear(12, 48), nn.GELU(), nn.Linear(48, 3))
    net, ings = cook(net, x, y, x_val, y_val)
    same = all(torch.equal(ings[0][k], ings[-1][k]) for k in ings[0])
    print("all ingredients identical:", same)
