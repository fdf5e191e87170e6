"""Model soups: fine-tune from one pretrained start with several hyper-parameters, then average."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def finetune(model, x, y, lr, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def uniform_soup(state_dicts):
    return {k: sum(sd[k] for sd in state_dicts) / len(state_dicts) for k in state_dicts[0]}


def buggy_soup(model, x, y, lrs=(0.01, 0.05, 0.1)):
    zero_shot = model.state_dict()  # expect: TEN402
    ingredients = []
    for lr in lrs:
        model.load_state_dict(zero_shot)
        finetune(model, x, y, lr)
        ingredients.append(dict(model.state_dict()))  # expect: TEN402
    model.load_state_dict(uniform_soup(ingredients))
    return model


def soup_from_fresh_models(make_model, pretrained_path_state, x, y, lrs=(0.01, 0.05)):
    # every ingredient is a different module that is never trained again: no bug
    ingredients = []
    for lr in lrs:
        m = make_model()
        m.load_state_dict(pretrained_path_state)
        finetune(m, x, y, lr)
        ingredients.append(m.state_dict())  # either
    return uniform_soup(ingredients)


def soup_of_new_linears(pretrained_state, x, y, lrs=(0.01, 0.05)):
    ingredients = []
    for lr in lrs:
        m = nn.Linear(4, 1)
        m.load_state_dict(pretrained_state)
        finetune(m, x, y, lr)
        ingredients.append(m.state_dict())  # ok
    return uniform_soup(ingredients)


def greedy_soup(model, candidates, x, y):
    """candidates: list of independent state dicts (already copies)."""
    def score(sd):
        model.load_state_dict(sd)
        with torch.no_grad():
            return -F.mse_loss(model(x), y).item()

    ranked = sorted(candidates, key=score, reverse=True)
    soup = [ranked[0]]
    best = score(ranked[0])
    for cand in ranked[1:]:
        trial = uniform_soup(soup + [cand])
        s = score(trial)
        if s >= best:
            soup.append(cand)
            best = s
    return uniform_soup(soup)


def soup_ok(model, x, y, lrs=(0.01, 0.05, 0.1)):
    zero_shot = copy.deepcopy(model.state_dict())  # ok
    ingredients = []
    for lr in lrs:
        model.load_state_dict(zero_shot)
        finetune(model, x, y, lr)
        ingredients.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
    model.load_state_dict(uniform_soup(ingredients))
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    a = nn.Linear(4, 1)
    b = copy.deepcopy(a)
    buggy_soup(a, x, y)
    soup_ok(b, x, y)
    print("buggy soup == correct soup?", torch.allclose(a.weight, b.weight))
    # in the buggy soup all ingredients are the same tensors: the soup equals the last fine-tuned model
    fresh = soup_from_fresh_models(lambda: nn.Linear(4, 1), copy.deepcopy(b.state_dict()), x, y)
    print(greedy_soup(nn.Linear(4, 1), [fresh, copy.deepcopy(b.state_dict())], x, y).keys())
