"""SWA / EMA weights swapped in for evaluation and swapped back afterwards."""
import contextlib
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


@contextlib.contextmanager
def swapped_weights(model, averaged_state):
    original = model.state_dict()  # expect: TEN402
    model.load_state_dict(averaged_state)
    try:
        yield model
    finally:
        model.load_state_dict(original)


@contextlib.contextmanager
def swapped_weights_ok(model, averaged_state):
    original = copy.deepcopy(model.state_dict())  # ok
    model.load_state_dict(averaged_state)
    try:
        yield model
    finally:
        model.load_state_dict(original)


def swap_in(model, new_state):
    """Returns the weights that were there before, to swap back later."""
    previous = dict(model.state_dict())  # expect: TEN402
    model.load_state_dict(new_state)
    return previous


def swap_in_ok(model, new_state):
    previous = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    model.load_state_dict(new_state)
    return previous


class SWA:
    def __init__(self, model):
        self.n = 0
        self.avg = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok

    @torch.no_grad()
    def update(self, model):
        self.n += 1
        for k, v in model.state_dict().items():
            if v.is_floating_point():
                self.avg[k] += (v - self.avg[k]) / (self.n + 1)


def evaluate(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def train_with_swa(model, x, y, steps=20):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    swa = SWA(model)
    for step in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        swa.update(model)
    raw = {k: v.clone() for k, v in model.state_dict().items()}
    with swapped_weights(model, swa.avg):
        print("swa loss", evaluate(model, x, y))
    back = all(torch.equal(v, raw[k]) for k, v in model.state_dict().items())
    print("context manager swapped back to raw:", back)
    prev = swap_in(model, swa.avg)
    print("swap_in returned raw:", all(torch.equal(v, raw[k]) for k, v in prev.items()))
    model.load_state_dict(prev)
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    train_with_swa(nn.Linear(4, 1), torch.randn(16, 4), torch.randn(16, 1))
