"""Learning-rate sweep where every trial should start from identical weights."""
import io
import itertools

import torch
from torch import nn


def build_model():
    return nn.Sequential(nn.Linear(7, 32), nn.ReLU(), nn.Linear(32, 1))


def run_trial(model, lr, wd, x, y, xv, yv, steps=15):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return nn.functional.mse_loss(model(xv), yv).item()


def sweep_shared_init(grid, data):
    torch.manual_seed(0)
    model = build_model()
    init_sd = model.state_dict()  # expect: TEN402
    results = {}
    for lr, wd in grid:
        model.load_state_dict(init_sd)
        results[(lr, wd)] = run_trial(model, lr, wd, *data)
    return results


def sweep_serialized_init(grid, data):
    torch.manual_seed(0)
    model = build_model()
    raw = io.BytesIO()
    torch.save(model.state_dict(), raw)  # ok
    results = {}
    for lr, wd in grid:
        raw.seek(0)
        model.load_state_dict(torch.load(raw))
        results[(lr, wd)] = run_trial(model, lr, wd, *data)
    return results


def sweep_fresh_models(grid, data):
    results = {}
    for lr, wd in grid:
        torch.manual_seed(0)
        model = build_model()
        results[(lr, wd)] = run_trial(model, lr, wd, *data)
    return results


if __name__ == "__main__":
    g = torch.Generator().manual_seed(5)
    x, xv = torch.randn(96, 7, generator=g), torch.randn(48, 7, generator=g)
    w = torch.randn(7, 1, generator=g)
    data = (x, x @ w, xv, xv @ w)
    grid = list(itertools.product([0.003, 0.01, 0.03], [0.0, 0.01]))
    shared = sweep_shared_init(grid, data)
    ser = sweep_serialized_init(grid, data)
    fresh = sweep_fresh_models(grid, data)
    for key in grid:
        print(f"lr={key[0]:<6} wd={key[1]:<5} shared={shared[key]:.4f} serialized={ser[key]:.4f} fresh={fresh[key]:.4f}")
