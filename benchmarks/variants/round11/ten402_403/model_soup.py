# Greedy-free "uniform soup": fine-tune one model with several learning rates
# in sequence and average the resulting weights.
import copy

import torch
import torch.nn as nn


def classifier():
    return nn.Sequential(nn.Linear(512, 256), nn.LayerNorm(256), nn.ReLU(), nn.Linear(256, 20))


def finetune(model, lr, steps=100):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    for _ in range(steps):
        feats = torch.randn(32, 512)
        labels = torch.randint(0, 20, (32,))
        loss = nn.functional.cross_entropy(model(feats), labels, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()


def uniform_soup(ingredients):
    keys = ingredients[0].keys()
    return {k: sum(sd[k] for sd in ingredients) / len(ingredients) for k in keys}


def cook(pretrained_state, lrs=(1e-5, 3e-5, 1e-4)):
    model = classifier()
    ingredients = []
    for lr in lrs:
        model.load_state_dict(pretrained_state)
        finetune(model, lr)
        ingredients.append(copy.copy(model.state_dict()))  # expect: TEN402
    soup = classifier()
    soup.load_state_dict(uniform_soup(ingredients))
    return soup


def cook_correctly(pretrained_state, lrs=(1e-5, 3e-5, 1e-4)):
    model = classifier()
    ingredients = []
    for lr in lrs:
        model.load_state_dict(pretrained_state)
        finetune(model, lr)
        ingredients.append(copy.deepcopy(model.state_dict()))  # ok
    soup = classifier()
    soup.load_state_dict(uniform_soup(ingredients))
    return soup


if __name__ == "__main__":
    base = classifier()
    pretrained = {k: v.clone() for k, v in base.state_dict().items()}  # ok
    print(cook(pretrained)[0].weight.norm().item())
    print(cook_correctly(pretrained)[0].weight.norm().item())
