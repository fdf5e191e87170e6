"""Helpers that convert tensors before they are stored; callers pass attached losses."""
import torch
import torch.nn as nn


def to_float(x):
    return x.item() if isinstance(x, torch.Tensor) else float(x)


class History:
    def __init__(self):
        self.records = {}

    def add(self, name, value):
        self.records.setdefault(name, []).append(to_float(value))


class RunningMean:
    def __init__(self):
        self.total = torch.zeros(())
        self.n = 0

    def update(self, value):
        with torch.no_grad():
            self.total += value
        self.n += 1


def quick_eval(model, x, y):
    with torch.set_grad_enabled(False):
        return nn.functional.mse_loss(model(x), y)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 10), nn.Tanh(), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    history, running = History(), RunningMean()
    eval_curve, loss_list = [], []
    x_val, y_val = torch.randn(16, 4), torch.randn(16, 1)
    for step in range(8):
        x, y = torch.randn(16, 4), torch.randn(16, 1)
        pred = model(x)
        loss = nn.functional.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.add("loss", loss)  # ok
        history.add("pred_std", pred.std())  # ok
        running.update(loss)  # ok
        loss_list.append(to_float(loss))  # ok
        eval_curve.append(quick_eval(model, x_val, y_val))  # ok
    print(running.total.item() / running.n, len(history.records["loss"]), float(eval_curve[-1]))


if __name__ == "__main__":
    main()
