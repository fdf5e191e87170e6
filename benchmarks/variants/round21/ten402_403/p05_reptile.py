"""Reptile (Nichol et al. 2018) on 1-D sine regression, following the OpenAI reference script."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

INNER_STEPS, INNER_LR, OUTER_STEPSIZE, ITERS = 8, 0.02, 0.1, 60
x_all = torch.linspace(-5, 5, 50).unsqueeze(1)


def gen_task(rng):
    phase = rng.uniform(0, 2 * math.pi)
    ampl = rng.uniform(0.1, 5)
    return lambda x: torch.sin(x + phase) * ampl


def train_on_batch(model, x, y):
    model.zero_grad()
    loss = (model(x) - y).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= INNER_LR * p.grad


def reptile_listsnap(model, rng):
    for it in range(ITERS):
        f = gen_task(rng)
        weights_before = [p for p in model.parameters()]  # expect: TEN402
        for _ in range(INNER_STEPS):
            train_on_batch(model, x_all, f(x_all))
        outer = OUTER_STEPSIZE * (1 - it / ITERS)
        with torch.no_grad():
            for p, w0 in zip(model.parameters(), weights_before):
                p.copy_(w0 + (p - w0) * outer)


def reptile(model, rng):
    for it in range(ITERS):
        f = gen_task(rng)
        weights_before = copy.deepcopy(model.state_dict())  # ok
        for _ in range(INNER_STEPS):
            train_on_batch(model, x_all, f(x_all))
        weights_after = model.state_dict()  # ok
        outer = OUTER_STEPSIZE * (1 - it / ITERS)
        model.load_state_dict({n: weights_before[n] + (weights_after[n] - weights_before[n]) * outer
                               for n in weights_before})


if __name__ == "__main__":
    import random
    for algo in (reptile_listsnap, reptile):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
        w_init = torch.nn.utils.parameters_to_vector(model.parameters()).detach()  # ok
        algo(model, random.Random(0))
        w_meta = torch.nn.utils.parameters_to_vector(model.parameters()).detach()
        print(f"{algo.__name__:14s} |meta - init| = {(w_meta - w_init).norm().item():.4f}")
