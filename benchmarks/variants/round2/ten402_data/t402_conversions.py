"""Snapshots that look converted but still alias the weights (on CPU), and real copies."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def step(model, opt, x, y):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()


def numpy_snapshot(model, opt, x, y):
    best = {k: v.cpu().numpy() for k, v in model.state_dict().items()}  # expect: TEN402
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict({k: torch.from_numpy(a) for k, a in best.items()})


def float_snapshot(model, opt, x, y):
    # the model is already float32: .float() returns the same tensor
    init = {name: t.float() for name, t in model.state_dict().items()}  # expect: TEN402
    for _ in range(3):
        step(model, opt, x, y)
    return sum((model.state_dict()[n] - t).abs().sum() for n, t in init.items())


def keep_vars_snapshot(model, opt, x, y):
    anchor = model.state_dict(keep_vars=True)  # expect: TEN402
    for _ in range(3):
        step(model, opt, x, y)
    penalty = sum(((p - anchor[n].detach()) ** 2).sum() for n, p in model.named_parameters())
    return penalty


def to_cpu_snapshot(model, opt, x, y):
    snapshot = {k: v.to("cpu") for k, v in model.state_dict().items()}  # expect: TEN402
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict(snapshot)


def copy_true_snapshot(model, opt, x, y):
    snapshot = {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict(snapshot)


def numpy_copy_snapshot(model, opt, x, y):
    best = {k: v.detach().cpu().numpy().copy() for k, v in model.state_dict().items()}  # ok
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict({k: torch.from_numpy(a) for k, a in best.items()})


def half_snapshot(model, opt, x, y):
    small = {k: v.half() for k, v in model.state_dict().items()}  # ok
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict({k: v.float() for k, v in small.items()})


def np_array_snapshot(model, opt, x, y):
    best = {k: np.array(v) for k, v in model.state_dict().items()}  # ok
    for _ in range(3):
        step(model, opt, x, y)
    model.load_state_dict({k: torch.as_tensor(a) for k, a in best.items()})


if __name__ == "__main__":
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    for fn in (numpy_snapshot, to_cpu_snapshot, copy_true_snapshot, numpy_copy_snapshot, half_snapshot, np_array_snapshot):
        torch.manual_seed(0)
        m = nn.Linear(4, 1)
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        for _ in range(3):
            step(m, opt, x, y)
        last = m.weight.detach().clone()
        fn(m, opt, x, y)
        # after fn: restored == weights after 6 steps?  compare with a 6-step reference
        torch.manual_seed(0)
        r = nn.Linear(4, 1)
        ro = torch.optim.SGD(r.parameters(), lr=0.1)
        for _ in range(6):
            step(r, ro, x, y)
        print(fn.__name__, "restored the LAST weights:", torch.allclose(m.weight, r.weight),
              "restored the snapshot:", torch.allclose(m.weight, last, atol=1e-3))
    torch.manual_seed(0)
    m = nn.Linear(4, 1)
    print("float drift measured:", float(float_snapshot(m, torch.optim.SGD(m.parameters(), lr=0.1), x, y)))
    m = nn.Linear(4, 1)
    print("keep_vars penalty:", float(keep_vars_snapshot(m, torch.optim.SGD(m.parameters(), lr=0.1), x, y)))
