"""Early stopping written as a factory of closures that share state via nonlocal."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_early_stopper(model, patience=3):
    best_score = float("-inf")
    best_state = None
    bad_epochs = 0

    def step(score):
        nonlocal best_score, best_state, bad_epochs
        if score > best_score:
            best_score = score
            best_state = model.state_dict()  # expect: TEN402
            bad_epochs = 0
        else:
            bad_epochs += 1
        return bad_epochs >= patience

    def restore():
        model.load_state_dict(best_state)

    return step, restore


def make_early_stopper_ok(model, patience=3):
    best = {"score": float("-inf"), "state": None}

    def step(score):
        if score > best["score"]:
            best["score"] = score
            best["state"] = copy.deepcopy(model.state_dict())  # ok
        return False

    def restore():
        model.load_state_dict(best["state"])

    return step, restore


def fit(model, x, y, stopper_factory, epochs=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    should_stop, restore = stopper_factory(model)
    scores = [0.9, 0.5, 0.4, 0.3, 0.2, 0.1]  # best at epoch 0
    first = None
    for epoch in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        if epoch == 0:
            first = {k: v.clone() for k, v in model.state_dict().items()}
        if should_stop(scores[epoch]):
            break
    last = {k: v.clone() for k, v in model.state_dict().items()}
    restore()
    now = model.state_dict()
    return all(torch.equal(now[k], last[k]) for k in now), all(torch.equal(now[k], first[k]) for k in now)


def main_loop_with_dict_cell(model, x, y):
    # the "cell" is a one-element list captured by the closure
    cell = [None]
    opt = torch.optim.Adam(model.parameters(), lr=0.01)

    def remember():
        cell[0] = model.state_dict()  # expect: TEN402

    for epoch in range(4):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        if epoch == 1:
            remember()
    model.load_state_dict(cell[0])


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    print("closure stopper restores last? equals first?", fit(nn.Linear(4, 1), x, y, make_early_stopper))
    print("deepcopy stopper restores last? equals first?", fit(nn.Linear(4, 1), x, y, make_early_stopper_ok))
