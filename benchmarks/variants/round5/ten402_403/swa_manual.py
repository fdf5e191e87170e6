"""Hand-rolled stochastic weight averaging (Izmailov et al., 2018) over the
last epochs of a cyclic-LR run, plus best-epoch tracking for comparison."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def val_loss(model, x, y):
    return F.mse_loss(model(x), y).item()


def train_swa(model, x, y, xv, yv, epochs=30, swa_start=20, lr=0.01):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    start = [p.detach().clone() for p in model.parameters()]  # ok
    swa_state, n_avg = None, 0
    best, best_loss = None, float("inf")
    for epoch in range(epochs):
        for i in range(0, x.shape[0], 16):
            opt.zero_grad()
            F.mse_loss(model(x[i:i + 16]), y[i:i + 16]).backward()
            opt.step()
        loss = val_loss(model, xv, yv)
        if loss < best_loss:
            best_loss = loss
            best = copy.deepcopy(model.state_dict())  # ok
        if epoch >= swa_start:
            if swa_state is None:
                swa_state = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
            else:
                for k, v in model.state_dict().items():
                    swa_state[k].mul_(n_avg / (n_avg + 1)).add_(v / (n_avg + 1))
            n_avg += 1
    travelled = sum((p.detach() - s).norm().item() for p, s in zip(model.parameters(), start))
    return swa_state, best, best_loss, travelled


if __name__ == "__main__":
    torch.manual_seed(0)
    x, xv = torch.randn(128, 6), torch.randn(64, 6)
    w = torch.randn(6, 1)
    y, yv = x @ w + 0.2 * torch.randn(128, 1), xv @ w + 0.2 * torch.randn(64, 1)
    net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    swa, best, best_loss, dist = train_swa(net, x, y, xv, yv)
    final = val_loss(net, xv, yv)
    net.load_state_dict(best)
    print(f"final {final:.4f} best {best_loss:.4f} restored best {val_loss(net, xv, yv):.4f} travelled {dist:.2f}")
    net.load_state_dict(swa)
    print(f"swa {val_loss(net, xv, yv):.4f}")
