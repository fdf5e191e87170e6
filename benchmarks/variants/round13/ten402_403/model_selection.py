"""K-fold cross-validation and a tiny learning-rate search on one model object."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


def dataset(n=90, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 7, generator=g)
    y = (x[:, 0] - x[:, 3] + 0.3 * torch.randn(n, generator=g) > 0).long()
    return x, y


def kfold_indices(n, k):
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(42))
    folds = perm.chunk(k)
    for i in range(k):
        val = folds[i]
        train = torch.cat([f for j, f in enumerate(folds) if j != i])
        yield train, val


def fit(model, x, y, lr=0.1, epochs=20):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()


@torch.no_grad()
def score(model, x, y):
    return (model(x).argmax(1) == y).float().mean().item()


def cross_validate(k=3, seed=0):
    torch.manual_seed(seed)
    x, y = dataset(seed=seed)
    model = nn.Sequential(nn.Linear(7, 12), nn.ReLU(), nn.Linear(12, 2))
    initial = model.state_dict()  # expect: TEN402
    scores, starts = [], []
    for tr, va in kfold_indices(len(x), k):
        model.load_state_dict(initial)  # reset to the same init for every fold
        starts.append(model[0].weight.detach().clone())  # ok
        fit(model, x[tr], y[tr])
        scores.append(score(model, x[va], y[va]))
    return scores, starts


def lr_search(lrs=(0.5, 0.1, 0.01), seed=0):
    torch.manual_seed(seed)
    x, y = dataset(seed=seed)
    xv, yv = dataset(40, seed=seed + 1)
    model = nn.Sequential(nn.Linear(7, 12), nn.ReLU(), nn.Linear(12, 2))
    base = copy.deepcopy(model.state_dict())  # ok
    trial_weights, trial_scores = {}, {}
    for lr in lrs:
        model.load_state_dict(base)
        fit(model, x, y, lr=lr)
        trial_scores[lr] = score(model, xv, yv)
        trial_weights[lr] = model.state_dict()  # expect: TEN402
    best_lr = max(trial_scores, key=trial_scores.get)
    model.load_state_dict(trial_weights[best_lr])
    return model, best_lr, trial_scores, trial_weights


if __name__ == "__main__":
    scores, starts = cross_validate()
    print("fold scores", [round(s, 3) for s in scores])
    print("fold inits identical:", all(torch.equal(starts[0], s) for s in starts))
    model, best_lr, trial_scores, _ = lr_search()
    print("best lr", best_lr, trial_scores)
