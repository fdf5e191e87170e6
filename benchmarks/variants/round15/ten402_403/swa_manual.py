"""Stochastic weight averaging: a hand-rolled running mean vs torch.optim.swa_utils."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel

torch.manual_seed(0)
X, Y = torch.randn(128, 6), torch.randn(128, 1)


def make():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))


def train_epoch(model, opt):
    for i in range(0, 128, 32):
        opt.zero_grad()
        F.mse_loss(model(X[i:i + 32]), Y[i:i + 32]).backward()
        opt.step()


def manual_swa(epochs=10, swa_start=5):
    model = make()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    swa_params, n = None, 0
    for epoch in range(epochs):
        train_epoch(model, opt)
        if epoch == swa_start:
            swa_params = list(model.parameters())  # expect: TEN402
            n = 1
        elif epoch > swa_start:
            with torch.no_grad():
                for sp, p in zip(swa_params, model.parameters()):
                    sp.mul_(n / (n + 1)).add_(p / (n + 1))
            n += 1
    return F.mse_loss(model(X), Y).item()


def library_swa(epochs=10, swa_start=5):
    model = make()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    swa_model = AveragedModel(model)  # ok
    for epoch in range(epochs):
        train_epoch(model, opt)
        if epoch >= swa_start:
            swa_model.update_parameters(model)
    with torch.no_grad():
        return F.mse_loss(swa_model(X), Y).item()


def manual_swa_fixed(epochs=10, swa_start=5):
    model = make()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    avg, n = None, 0
    for epoch in range(epochs):
        train_epoch(model, opt)
        if epoch >= swa_start:
            cur = [p.detach().clone() for p in model.parameters()]  # ok
            avg = cur if avg is None else [a + (c - a) / (n + 1) for a, c in zip(avg, cur)]  # ok
            n += 1
    with torch.no_grad():
        for p, a in zip(model.parameters(), avg):
            p.copy_(a)  # ok
    return F.mse_loss(model(X), Y).item()


if __name__ == "__main__":
    print(manual_swa(), library_swa(), manual_swa_fixed())
