"""Diagnostics: per-step update/weight ratio (a.k.a. 'update scale' plots)."""
import torch
from torch import nn
from torch.nn.utils import parameters_to_vector


def make():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    x, y = torch.randn(256, 10), torch.randint(0, 10, (256,))
    return net, opt, x, y


def step(net, opt, x, y):
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def ratios_naive(n_steps=5):
    net, opt, x, y = make()
    out = []
    for _ in range(n_steps):
        prev = list(net.parameters())  # expect: TEN402
        step(net, opt, x, y)
        num = sum((p.detach() - q.detach()).norm() ** 2 for p, q in zip(net.parameters(), prev)) ** 0.5
        den = sum(q.detach().norm() ** 2 for q in prev) ** 0.5
        out.append((num / den).item())
    return out


def ratios_vector(n_steps=5):
    net, opt, x, y = make()
    out = []
    for _ in range(n_steps):
        prev = parameters_to_vector(net.parameters())  # ok
        step(net, opt, x, y)
        now = parameters_to_vector(net.parameters())
        out.append(((now - prev).norm() / prev.norm()).item())
    return out


def ratios_per_layer(n_steps=5):
    net, opt, x, y = make()
    history = {}
    for _ in range(n_steps):
        prev = {n: p.detach().clone() for n, p in net.named_parameters()}  # ok
        step(net, opt, x, y)
        for n, p in net.named_parameters():
            history.setdefault(n, []).append(((p.detach() - prev[n]).norm() / prev[n].norm()).item())
    return history


def grad_snapshot(net):
    return [p.grad.detach().clone() for p in net.parameters() if p.grad is not None]  # ok


if __name__ == "__main__":
    print("naive  ", [round(r, 5) for r in ratios_naive()])
    print("vector ", [round(r, 5) for r in ratios_vector()])
    hist = ratios_per_layer()
    print("layer0 ", [round(r, 5) for r in hist["0.weight"]])
    net, opt, x, y = make()
    step(net, opt, x, y)
    g = grad_snapshot(net)
    step(net, opt, x, y)
    print("grad change", round(sum((a - p.grad).norm().item() for a, p in zip(g, net.parameters())), 5))
