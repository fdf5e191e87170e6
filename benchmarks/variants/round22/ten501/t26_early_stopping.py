"""Early stopping and plateau scheduling fed by a validation function."""
import copy

import numpy as np
import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience=2, delta=0.0):
        self.patience = patience
        self.delta = delta
        self.best = np.inf
        self.counter = 0
        self.scores = []
        self.best_state = None
        self.stop = False

    def __call__(self, val_loss, model):
        self.scores.append(val_loss)  # expect: TEN501
        if val_loss.item() < self.best - self.delta:
            self.best = val_loss.item()  # ok
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.counter = 0
        else:
            self.counter += 1  # ok
            self.stop = self.counter >= self.patience


def validate(model, batches):
    total = 0
    for x, y in batches:
        total = total + nn.functional.huber_loss(model(x), y)  # expect: TEN501
    return total / len(batches)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, factor=0.5)
    mk = lambda n: [(x, x.sum(1, keepdim=True) ** 2) for x in torch.randn(n, 8, 4)]
    train, val = mk(6), mk(2)
    stopper = EarlyStopping()
    lr_and_loss, val_curve = [], []
    for epoch in range(6):
        for x, y in train:
            loss = nn.functional.huber_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = validate(model, val)
        stopper(val_loss, model)  # either: TEN501
        sched.step(val_loss)  # ok
        lr_and_loss.append((opt.param_groups[0]["lr"], val_loss))  # expect: TEN501
        val_curve.append(val_loss.detach())  # ok
        if stopper.stop:
            break
    print(epoch, round(stopper.best, 4), [lr for lr, _ in lr_and_loss], len(val_curve))


if __name__ == "__main__":
    main()
