"""Reptile (Nichol et al., 2018) on sine-wave regression."""
import math
import random

import torch
import torch.nn as nn

INNER_STEPS = 32
INNER_LR = 0.02
OUTER_STEPSIZE = 0.1


def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0, math.pi)
    return lambda x: amp * torch.sin(x + phase)


def make_model():
    return nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))


def inner_train(model, f, steps=INNER_STEPS, lr=INNER_LR, batch=10):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        x = torch.rand(batch, 1) * 10 - 5
        loss = ((model(x) - f(x)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def reptile(n_iterations=30000, log_every=1000):
    model = make_model()
    init_params = [p.detach().clone() for p in model.parameters()]
    for it in range(n_iterations):
        weights_before = {k: v.clone() for k, v in model.state_dict().items()}
        f = sample_task()
        inner_train(model, f)
        weights_after = model.state_dict()
        eps = OUTER_STEPSIZE * (1 - it / n_iterations)
        model.load_state_dict(
            {k: weights_before[k] + (weights_after[k] - weights_before[k]) * eps for k in weights_before}
        )
        if it % log_every == 0:
            drift = sum((p.detach() - p0).norm().item() for p, p0 in zip(model.parameters(), init_params))
            print(f"iter {it}: distance from init {drift:.3f}")
    return model


def evaluate_adaptation(model, n_tasks=20, steps=(0, 1, 8, 32)):
    base = {k: v.detach().clone() for k, v in model.state_dict().items()}
    results = {s: 0.0 for s in steps}
    x_test = torch.linspace(-5, 5, 100)[:, None]
    for _ in range(n_tasks):
        f = sample_task()
        for s in steps:
            model.load_state_dict(base)
            if s:
                inner_train(model, f, steps=s)
            with torch.no_grad():
                results[s] += ((model(x_test) - f(x_test)) ** 2).mean().item() / n_tasks
    model.load_state_dict(base)
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    random.seed(0)
    m = reptile(n_iterations=5000)
    print(evaluate_adaptation(m))
