"""Reptile on 1-D sine regression tasks (two implementations of the outer update)."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def sample_task(gen):
    amp = 0.5 + 4.5 * torch.rand((), generator=gen)
    phase = math.pi * torch.rand((), generator=gen)
    return lambda x: amp * torch.sin(x + phase)


def inner_sgd(model, f, steps=8, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        x = torch.rand(10, 1) * 10 - 5
        opt.zero_grad()
        nn.functional.mse_loss(model(x), f(x)).backward()
        opt.step()


def reptile_a(model, iters, eps, gen):
    for it in range(iters):
        before = {n: p for n, p in model.named_parameters()}  # expect: TEN402
        inner_sgd(model, sample_task(gen))
        with torch.no_grad():
            for n, p in model.named_parameters():
                p.copy_(before[n] + eps * (p - before[n]))


def reptile_b(model, iters, eps, gen):
    for it in range(iters):
        before = copy.deepcopy(model.state_dict())  # ok
        inner_sgd(model, sample_task(gen))
        after = model.state_dict()  # ok
        blended = {n: before[n] + eps * (after[n] - before[n]) for n in before}
        model.load_state_dict(blended)


def adaptation_loss(model, gen, tasks=20):
    total = 0.0
    for _ in range(tasks):
        f = sample_task(gen)
        probe = copy.deepcopy(model)  # ok
        inner_sgd(probe, f, steps=5)
        x = torch.linspace(-5, 5, 50).unsqueeze(1)
        with torch.no_grad():
            total += nn.functional.mse_loss(probe(x), f(x)).item()
    return total / tasks


def main():
    for algo in (reptile_a, reptile_b):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 1))
        algo(model, iters=80, eps=0.1, gen=torch.Generator().manual_seed(5))
        print(algo.__name__, "post-adaptation mse %.3f" % adaptation_loss(model, torch.Generator().manual_seed(9)))


if __name__ == "__main__":
    main()
