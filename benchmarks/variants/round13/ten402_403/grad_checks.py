"""Unit-test style sanity checks for a training step."""
import torch
from torch import nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
import torch.nn.functional as F


def make_model():
    return nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))


def one_step(model, opt, x, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


def check_all_params_updated(model, opt, x, y):
    before = [p.detach().clone() for p in model.parameters()]  # ok
    one_step(model, opt, x, y)
    after = list(model.parameters())  # ok
    return [not torch.equal(b, a) for b, a in zip(before, after)]


def check_flat_vector_roundtrip(model, opt, x, y):
    flat = parameters_to_vector(model.parameters())  # ok
    one_step(model, opt, x, y)
    moved = (parameters_to_vector(model.parameters()) - flat).norm().item()
    vector_to_parameters(flat, model.parameters())
    restored = torch.equal(parameters_to_vector(model.parameters()), flat)
    return moved, restored


def check_frozen_layer(model, opt, x, y):
    model[0].requires_grad_(False)
    frozen = {n: p for n, p in model[0].named_parameters()}  # ok
    reference = {n: p.detach().clone() for n, p in frozen.items()}  # ok
    one_step(model, opt, x, y)
    model[0].requires_grad_(True)
    return all(torch.equal(frozen[n], reference[n]) for n in frozen)


def check_grads_finite(model, x, y):
    model.zero_grad()
    F.cross_entropy(model(x), y).backward()
    grads = [p.grad.detach().clone() for p in model.parameters()]  # ok
    model.zero_grad()
    return all(torch.isfinite(g).all() for g in grads)


def run_checks(seed=0):
    torch.manual_seed(seed)
    x, y = torch.randn(20, 6), torch.randint(0, 3, (20,))
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return {
        "updated": check_all_params_updated(model, opt, x, y),
        "roundtrip": check_flat_vector_roundtrip(model, opt, x, y),
        "frozen": check_frozen_layer(model, torch.optim.SGD(model.parameters(), lr=0.1), x, y),
        "finite": check_grads_finite(model, x, y),
    }


if __name__ == "__main__":
    for name, result in run_checks().items():
        print(name, result)
