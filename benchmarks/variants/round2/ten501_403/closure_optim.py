"""Closures handed to optimizer.step(closure): LBFGS and SGD."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fit_lbfgs(x, y, iters=4):
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=3)
    history = []
    history_ok = []
    for it in range(iters):
        def closure():
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            return loss
        loss = opt.step(closure)
        history.append(loss)  # expect: TEN501
        history_ok.append(loss.item())  # ok
    return history


def fit_sgd_closure(x, y, epochs=4):
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    evals = []
    total = 0.0
    for epoch in range(epochs):
        def closure():
            opt.zero_grad()
            out = model(x)
            loss = F.mse_loss(out, y)
            loss.backward()
            evals.append(loss)  # expect: TEN501
            return loss
        total += opt.step(closure).detach()  # ok
    return evals, total


class Fitter:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.LBFGS(self.model.parameters(), max_iter=2)
        self.n_calls = 0

    def _closure(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.n_calls += 1
        return loss

    def fit(self, x, y, steps=3):
        trace = []
        for _ in range(steps):
            trace.append(float(self.opt.step(lambda: self._closure(x, y))))  # ok
        return trace


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(32, 3), torch.randn(32, 1)
    h = fit_lbfgs(x, y)
    print("lbfgs history grad_fn:", h[0].grad_fn, h[-1].grad_fn)
    e, t = fit_sgd_closure(x, y)
    print("closure evals grad_fn:", e[0].grad_fn, "total:", t.grad_fn)
    print(Fitter().fit(x, y))
