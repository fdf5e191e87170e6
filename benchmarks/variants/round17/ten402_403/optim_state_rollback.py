"""Roll back model and optimizer when the loss spikes (e.g. a corrupted batch)."""
import copy

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def batch(step, g):
    x = torch.randn(32, 4, generator=g)
    y = x.sum(1, keepdim=True)
    if step == 23:
        y = y * 50.0
    return x, y


def train(rollback_mode):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(9)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
    good_model = good_opt = None
    running = None
    rollbacks = 0
    for step in range(40):
        x, y = batch(step, g)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        if running is not None and loss.item() > 10 * running and good_model is not None:
            model.load_state_dict(good_model)
            optimizer.load_state_dict(good_opt)
            rollbacks += 1
            continue
        loss.backward()
        optimizer.step()
        running = loss.item() if running is None else 0.9 * running + 0.1 * loss.item()
        if step % 5 == 4:
            good_model = copy.deepcopy(model.state_dict())  # ok
            if rollback_mode == "shallow":
                good_opt = optimizer.state_dict()  # expect: TEN402
            else:
                good_opt = copy.deepcopy(optimizer.state_dict())  # ok
    exp_avg_norm = sum(s["exp_avg"].norm() for s in optimizer.state_dict()["state"].values())  # ok
    return rollbacks, running, exp_avg_norm.item()


if __name__ == "__main__":
    for mode in ("shallow", "deep"):
        print(mode, train(mode))
