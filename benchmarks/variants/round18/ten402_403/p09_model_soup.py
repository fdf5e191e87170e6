"""Model soups: fine-tune one model with several learning rates, then average."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(96, 8)
Y = (X @ torch.randn(8, 4)).argmax(1)
Xv = torch.randn(64, 8)


def accuracy(model, x=X, y=Y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def finetune(model, lr, steps=20):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        opt.step()


def uniform_soup(states):
    return {k: torch.stack([sd[k].float() for sd in states]).mean(0) for k in states[0]}


def main():
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
    finetune(model, 0.05, steps=10)
    base_state = copy.deepcopy(model.state_dict())  # ok

    ingredients = []
    for lr in (0.01, 0.05, 0.2):
        model.load_state_dict(base_state)
        finetune(model, lr)
        ingredients.append(model.state_dict())  # expect: TEN402
    soup = uniform_soup(ingredients)
    spread = sum((ingredients[0][k] - ingredients[-1][k]).abs().sum().item() for k in soup)
    model.load_state_dict(soup)
    print("uniform soup acc", accuracy(model), "ingredient spread", spread)

    greedy = []
    for lr in (0.01, 0.05, 0.2):
        model.load_state_dict(base_state)
        finetune(model, lr)
        greedy.append((accuracy(model), {k: v.clone() for k, v in model.state_dict().items()}))  # ok
    greedy.sort(key=lambda t: -t[0])
    pot = [greedy[0][1]]
    for _acc, state in greedy[1:]:
        model.load_state_dict(uniform_soup(pot + [state]))
        if accuracy(model) >= greedy[0][0]:
            pot.append(state)
    model.load_state_dict(uniform_soup(pot))
    print("greedy soup acc", accuracy(model), "ingredients", len(pot))


if __name__ == "__main__":
    main()
