"""Measure how far wide networks move from initialisation (lazy-training probe)."""
import torch
from torch import nn
from torch.nn.utils import parameters_to_vector


def mlp(width, depth=3, d_in=32):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def relative_movement(params, init_params):
    num = sum((p - p0).pow(2).sum() for p, p0 in zip(params, init_params))
    den = sum(p0.pow(2).sum() for p0 in init_params)
    return (num / den).sqrt().item()


def probe(width, steps=2000, lr=0.1):
    torch.manual_seed(width)
    model = mlp(width)
    x = torch.randn(256, 32)
    y = torch.sin(x.sum(1, keepdim=True))
    opt = torch.optim.SGD(model.parameters(), lr=lr / width ** 0.5)

    init_params = [p for p in model.parameters()]  # expect: TEN402
    init_vec = parameters_to_vector(model.parameters()).detach()  # ok
    history = []
    for step in range(steps):
        loss = (model(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 200 == 0:
            with torch.no_grad():
                rel = relative_movement(list(model.parameters()), init_params)
                vec_rel = ((parameters_to_vector(model.parameters()) - init_vec).norm()
                           / init_vec.norm()).item()
            history.append((step, loss.item(), rel, vec_rel))
    return history


def probe_layers(width, steps=500):
    model = mlp(width)
    frozen = [p.detach().clone() for p in model.parameters()]  # ok
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(128, 32)
    for _ in range(steps):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return [((p - p0).norm() / p0.norm()).item()
            for p, p0 in zip(model.parameters(), frozen)]


if __name__ == "__main__":
    for w in (64, 256, 1024, 4096):
        h = probe(w)
        print(w, h[-1])
