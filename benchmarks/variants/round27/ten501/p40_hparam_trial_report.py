"""An Optuna-like trial object receives intermediate validation values."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Trial:
    def __init__(self, number):
        self.number = number
        self.intermediate_values = {}

    def report(self, value, step):
        self.intermediate_values[step] = value

    def should_prune(self):
        vals = list(self.intermediate_values.values())
        return len(vals) > 3 and float(vals[-1]) > float(vals[-4])


def objective(trial, lr, trial_ok):
    model = nn.Linear(5, 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    xv, yv = torch.randn(32, 5), torch.randn(32, 1)
    best_val = float("inf")
    for epoch in range(6):
        x = torch.randn(32, 5)
        loss = (model(x) - x[:, :1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        val_loss = nn.functional.mse_loss(model(xv), yv)
        trial.report(val_loss, epoch)  # expect: TEN501
        trial_ok.report(val_loss.item(), epoch)  # ok
        best_val = min(best_val, val_loss)  # either: TEN501
        if trial.should_prune():
            break
    return float(best_val)


for n, lr in enumerate([0.01, 0.1]):
    t, t_ok = Trial(n), Trial(n)
    print(n, lr, round(objective(t, lr, t_ok), 4), len(t_ok.intermediate_values))
