"""After training: export, evaluate an EMA copy and compare against the initial weights."""
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def train(model, x, y, steps=15):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def main():
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    init_state = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    init_flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])  # ok
    train(model, x, y)
    final_state = model.state_dict()  # ok
    buf = io.BytesIO()
    torch.save(final_state, buf)
    export = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    export.load_state_dict(model.state_dict())  # ok
    ema = copy.deepcopy(model)  # ok
    final_flat = torch.nn.utils.parameters_to_vector(model.parameters())  # ok
    dist = (final_flat - init_flat).norm().item()
    changed = [k for k in final_state if not torch.equal(final_state[k], init_state[k])]  # ok
    with torch.no_grad():
        same = torch.allclose(export(x), model(x)) and torch.allclose(ema(x), model(x))
    print("moved", round(dist, 4), "changed tensors", len(changed), "exports agree", same, len(buf.getvalue()) > 0)


if __name__ == "__main__":
    main()
