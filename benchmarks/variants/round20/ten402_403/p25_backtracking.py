"""Backtracking line search along the gradient, reverting on failure."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def loss_of(model, x, y):
    return nn.functional.mse_loss(model(x), y)


def line_search(model, x, y, keep, step0=50.0, shrink=0.5, tries=8):
    params = list(model.parameters())  # ok
    base = loss_of(model, x, y)
    grads = torch.autograd.grad(base, params)
    if keep == "type":
        origin = [p.detach().type(torch.float32) for p in params]  # expect: TEN402
    else:
        origin = [p.detach().type(torch.float64) for p in params]  # ok
    step = step0
    with torch.no_grad():
        for _ in range(tries):
            for p, o, g in zip(params, origin, grads):
                p.copy_(o - step * g)
            if loss_of(model, x, y) < base:
                return step, loss_of(model, x, y).item()
            step *= shrink
    return None, base.item()


for keep in ("type", "f64"):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x, y = torch.randn(40, 3), torch.randn(40, 1)
    start = loss_of(model, x, y).item()
    step, final = line_search(model, x, y, keep)
    print(f"keep={keep} start={start:.4f} accepted_step={step} final={final:.4g}")
