"""Less common ways of keeping a state dict: dict.update, tuple unpacking, globals, hook tables."""
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X, Y = torch.randn(16, 4), torch.randn(16, 1)
BEST = None


def one_epoch():
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    return -loss.item()


def on_improve():
    global BEST
    BEST = model.state_dict()  # expect: TEN402


def loop_with_global(epochs=3):
    best = float("-inf")
    for _ in range(epochs):
        s = one_epoch()
        if s > best:
            best = s
            on_improve()
    model.load_state_dict(BEST)


def loop_with_update(epochs=3):
    store = {"score": float("-inf")}
    for _ in range(epochs):
        s = one_epoch()
        if s > store["score"]:
            store.update(score=s, weights=model.state_dict())  # expect: TEN402
    model.load_state_dict(store["weights"])


def loop_with_tuple_unpack(epochs=3):
    best_state, best_score = None, float("-inf")
    for _ in range(epochs):
        s = one_epoch()
        if s > best_score:
            best_state, best_score = model.state_dict(), s  # expect: TEN402
    model.load_state_dict(best_state)


def loop_with_hook_table(epochs=3):
    kept = {}
    hooks = {"improved": lambda: kept.__setitem__("w", model.state_dict())}  # expect: TEN402
    for epoch in range(epochs):
        one_epoch()
        if epoch == 0:
            hooks["improved"]()
    model.load_state_dict(kept["w"])


def loop_ok(epochs=3):
    best_state, best_score = None, float("-inf")
    for _ in range(epochs):
        s = one_epoch()
        if s > best_score:
            best_state, best_score = deepcopy(model.state_dict()), s  # ok
    model.load_state_dict(best_state)


def halve_weights_in_place():
    sd = model.state_dict()  # ok
    for k in sd:
        sd[k].mul_(0.5)
    one_epoch()


def sync_target():
    target = nn.Linear(4, 1)
    target.load_state_dict(model.state_dict())  # ok
    for _ in range(2):
        one_epoch()
    return target


if __name__ == "__main__":
    snap = model.weight.detach().clone()
    loop_with_tuple_unpack(1)
    after_one = model.weight.detach().clone()
    loop_with_tuple_unpack(3)
    print("tuple-unpack restored the last weights:", torch.allclose(model.weight, after_one) is False)
