"""Greedy model soup (Wortsman et al. 2022) over several fine-tuning runs.

Each ingredient is fine-tuned from the same pretrained weights with a
different learning rate, then weights are averaged greedily by held-out accuracy.
"""
import copy

import torch
from torch import nn


def finetune(model, data, lr, steps=20):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


@torch.no_grad()
def accuracy(model, data):
    x, y = data
    return (model(x).argmax(-1) == y).float().mean().item()


def average_state_dicts(states):
    return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


def build_soup(model, train, held_out, lrs=(0.01, 0.03, 0.1, 0.3), device="cpu"):
    model.to(device)
    pretrained = copy.deepcopy(model.state_dict())  # ok
    ingredients = []
    for lr in lrs:
        model.load_state_dict(pretrained)
        finetune(model, train, lr)
        ingredients.append({k: v.cpu() for k, v in model.state_dict().items()})  # expect: TEN402

    scored = []
    for sd in ingredients:
        model.load_state_dict(sd)
        scored.append((accuracy(model, held_out), sd))
    scored.sort(key=lambda t: t[0], reverse=True)

    soup = [scored[0][1]]
    best_acc = scored[0][0]
    for acc, sd in scored[1:]:
        model.load_state_dict(average_state_dicts(soup + [sd]))
        cand = accuracy(model, held_out)
        if cand >= best_acc:
            soup.append(sd)
            best_acc = cand
    model.load_state_dict(average_state_dicts(soup))
    return best_acc, len(soup)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    tr = (torch.randn(90, 10), torch.randint(0, 3, (90,)))
    ho = (torch.randn(30, 10), torch.randint(0, 3, (30,)))
    print(build_soup(net, tr, ho))
