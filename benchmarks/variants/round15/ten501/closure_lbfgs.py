"""Full-batch curve fitting with LBFGS closures (and an SGD closure variant)."""
import torch
import torch.nn as nn


def fit_lbfgs(model, x, y, steps=4):
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=5)
    loss_trace = []
    loss_values = []
    closure_evals = 0
    step_losses = []

    def closure():
        nonlocal closure_evals
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        closure_evals += 1  # ok
        loss_trace.append(loss)  # expect: TEN501
        loss_values.append(loss.item())  # ok
        return loss

    for _ in range(steps):
        step_losses.append(optimizer.step(closure))  # expect: TEN501
    return loss_trace, loss_values, step_losses, closure_evals


def fit_sgd_closure(model, x, y, steps=6):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    history = []
    reported = []

    def closure():
        optimizer.zero_grad()
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        loss.backward()
        return loss

    for _ in range(steps):
        loss = optimizer.step(closure)
        history.append(loss.item())  # ok
        reported.append(optimizer.step(closure).detach())  # ok
    return history, reported


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 32).unsqueeze(1)
    y = torch.sin(3 * x)
    model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
    trace, values, steps, evals = fit_lbfgs(model, x, y)
    print(evals, values[-1], len(steps))
    print(fit_sgd_closure(nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1)), x, y)[0][-1])
