"""LBFGS with a closure: the closure itself records into enclosing-scope lists."""
import torch
from torch import nn


def fit_curve(steps=4):
    torch.manual_seed(0)
    t = torch.linspace(-2, 2, 50).unsqueeze(1)
    target = torch.tanh(3 * t) + 0.05 * torch.randn_like(t)
    net = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 1))
    opt = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=5)

    trace = []
    trace_f = []
    evals = 0

    def closure():
        nonlocal evals
        opt.zero_grad()
        loss = ((net(t) - target) ** 2).mean()
        loss.backward()
        evals += 1  # ok
        trace.append(loss)  # expect: TEN501
        trace_f.append(loss.item())  # ok
        return loss

    step_losses = []
    step_losses_f = []
    for _ in range(steps):
        final = opt.step(closure)
        step_losses.append(final)  # expect: TEN501
        step_losses_f.append(float(final))  # ok
    return trace, trace_f, step_losses, step_losses_f, evals


if __name__ == "__main__":
    tr, trf, sl, slf, n = fit_curve()
    print(n, len(tr), round(trf[-1], 5), len(sl), round(slf[-1], 5))
