"""Tiny hyper-parameter search: objective() returns a validation loss, a Study keeps trials."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Study:
    def __init__(self):
        self.trials = []
        self.best_value = None
        self.best_params = None

    def ask(self, i):
        return {"lr": [0.3, 0.1, 0.03, 0.01, 0.003][i % 5], "hidden": [4, 8, 16][i % 3]}

    def tell(self, params, value):
        self.trials.append({"params": params, "value": value})
        if self.best_value is None or value < self.best_value:
            self.best_value, self.best_params = value, params


X, Y = torch.randn(64, 3), torch.randn(64, 1)
XV, YV = torch.randn(32, 3), torch.randn(32, 1)


def objective(params, steps=5):
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(3, params["hidden"]), nn.ReLU(), nn.Linear(params["hidden"], 1))
    opt = torch.optim.SGD(net.parameters(), lr=params["lr"])
    for _ in range(steps):
        loss = nn.functional.mse_loss(net(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return nn.functional.mse_loss(net(XV), YV)


study, study_ok = Study(), Study()
for i in range(6):
    params = study.ask(i)
    value = objective(params)
    study.tell(params, value)  # expect: TEN501
    study_ok.tell(params, float(value))  # ok
print(study_ok.best_params, round(study_ok.best_value, 4), round(float(study.best_value), 4), len(study.trials))
