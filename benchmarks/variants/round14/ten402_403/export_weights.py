"""Export helpers for a finished model: host copies, numpy views, optimizer state."""
import copy
import io

import numpy as np
import torch
from torch import nn
from torch.nn.utils import parameters_to_vector


def host_copy(model):
    if next(model.parameters()).is_cuda:
        return {k: v.cpu() for k, v in model.state_dict().items()}  # ok
    return {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok


def fresh_tensors(model):
    return {k: torch.empty_like(v).copy_(v) for k, v in model.state_dict().items()}  # ok


def to_numpy_views(model):
    return [p.detach().numpy() for p in model.parameters()]  # either


def to_numpy_copies(model):
    return [p.detach().numpy().copy() for p in model.parameters()]  # ok


def fit(model, opt, x, y, steps):
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x, y = torch.randn(40, 3), torch.randn(40, 2)
    fit(model, opt, x, y, steps=5)

    host = host_copy(model)
    fresh = fresh_tensors(model)
    views = to_numpy_views(model)
    arrays = to_numpy_copies(model)
    vec = parameters_to_vector(model.parameters())  # ok
    opt_state = copy.deepcopy(opt.state_dict())  # ok
    frozen = copy.deepcopy(model).eval()  # ok

    fit(model, opt, x, y, steps=5)  # keep training after the export

    first = next(iter(host))
    print("host copy unchanged:", not torch.equal(host[first], model.state_dict()[first]))
    print("fresh copy unchanged:", not torch.equal(fresh[first], model.state_dict()[first]))
    print("numpy views follow training:", np.array_equal(views[0], model[0].weight.detach().numpy()))
    print("numpy copies frozen:", not np.array_equal(arrays[0], model[0].weight.detach().numpy()))
    print("vector frozen:", not torch.equal(vec, parameters_to_vector(model.parameters())))
    print("optimizer step count frozen:", opt_state["state"][0]["step"].item(), "vs", opt.state_dict()["state"][0]["step"].item())
    with torch.no_grad():
        print("frozen copy differs:", not torch.allclose(frozen(x), model(x)))

    final_sd = model.state_dict()  # ok
    buf = io.BytesIO()
    torch.save(final_sd, buf)
    print("exported bytes:", len(buf.getvalue()) > 0)
