"""K-fold cross-validation that resets the model between folds.

Typical of tabular/Kaggle notebooks: build the model once, remember the
initial weights, and reload them at the start of each fold.
"""
import torch
from torch import nn


def kfold_indices(n, k):
    perm = torch.randperm(n)
    folds = perm.chunk(k)
    for i in range(k):
        val_idx = folds[i]
        train_idx = torch.cat([f for j, f in enumerate(folds) if j != i])
        yield train_idx, val_idx


def run_fold(model, x, y, train_idx, val_idx, epochs=25, lr=0.05):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.binary_cross_entropy_with_logits(model(x[train_idx]).squeeze(-1), y[train_idx]).backward()
        opt.step()
    with torch.no_grad():
        pred = model(x[val_idx]).squeeze(-1) > 0
        return (pred.float() == y[val_idx]).float().mean().item()


def cross_validate(x, y, k=5, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(x.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
    init_state = model.state_dict().copy()  # expect: TEN402
    scores = []
    for fold, (tr, va) in enumerate(kfold_indices(len(x), k)):
        model.load_state_dict(init_state)
        scores.append(run_fold(model, x, y, tr, va))
    return scores


if __name__ == "__main__":
    torch.manual_seed(1)
    X = torch.randn(200, 6)
    Y = (X[:, 0] + 0.5 * X[:, 1] > 0).float()
    print(["%.2f" % s for s in cross_validate(X, Y)])
