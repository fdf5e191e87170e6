"""First-order meta-learning (Reptile) on the sine-wave regression toy problem."""
import copy
import math

import numpy as np
import torch
from torch import nn


def make_model(hidden=64):
    return nn.Sequential(
        nn.Linear(1, hidden), nn.Tanh(),
        nn.Linear(hidden, hidden), nn.Tanh(),
        nn.Linear(hidden, 1),
    )


def sample_task(rng):
    amp = rng.uniform(0.1, 5.0)
    phase = rng.uniform(0, math.pi)
    return lambda x: amp * np.sin(x + phase)


def task_batch(f, rng, n=10):
    x = rng.uniform(-5.0, 5.0, size=(n, 1)).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(f(x).astype(np.float32))


def inner_sgd(model, x, y, steps, lr, batch=10):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    n = x.shape[0]
    for _ in range(steps):
        idx = torch.randint(0, n, (min(batch, n),))
        loss = (model(x[idx]) - y[idx]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate(model, rng, shots=10, steps=32, lr=0.02):
    saved = copy.deepcopy(model.state_dict())  # ok
    f = sample_task(rng)
    x, y = task_batch(f, rng, n=shots)
    inner_sgd(model, x, y, steps, lr)
    xt = torch.linspace(-5, 5, 100).unsqueeze(1)
    with torch.no_grad():
        err = (model(xt) - torch.from_numpy(f(xt.numpy()))).pow(2).mean().item()
    model.load_state_dict(saved)
    return err


def reptile(outer_iters=30000, inner_steps=32, inner_lr=0.02, outer_lr=0.1, seed=0):
    rng = np.random.RandomState(seed)
    torch.manual_seed(seed)
    model = make_model()
    for it in range(outer_iters):
        f = sample_task(rng)
        x, y = task_batch(f, rng, n=50)
        weights_before = [p.data for p in model.parameters()]  # expect: TEN402
        inner_sgd(model, x, y, inner_steps, inner_lr)

        eps = outer_lr * (1 - it / outer_iters)
        with torch.no_grad():
            for p, w0 in zip(model.parameters(), weights_before):
                p.copy_(w0 + eps * (p - w0))

        if it % 1000 == 0:
            print(f"iter {it:6d}  post-adaptation mse {evaluate(model, rng):.4f}")
    return model


if __name__ == "__main__":
    reptile()
