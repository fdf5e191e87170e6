"""Early stopping with a best-weights restore, two implementations."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    def __init__(self, patience=2):
        self.patience = patience
        self.best = float("inf")
        self.bad_epochs = 0
        self.best_state = None

    def step(self, val_loss, model):
        if val_loss < self.best:
            self.best = val_loss
            self.bad_epochs = 0
            self.best_state = model.state_dict()  # expect: TEN402
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore(self, model):
        model.load_state_dict(self.best_state)


class SafeEarlyStopping(EarlyStopping):
    def step(self, val_loss, model):
        if val_loss < self.best:
            self.best = val_loss
            self.bad_epochs = 0
            self.best_state = copy.deepcopy(model.state_dict())  # ok
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


def run(stopper_cls):
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    xtr, xva = torch.randn(64, 8), torch.randn(64, 8)
    ytr = xtr.sum(1, keepdim=True) + torch.randn(64, 1)
    yva = -xva.sum(1, keepdim=True)  # validation target disagrees, so val loss rises
    stopper = stopper_cls()
    for epoch in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(model(xtr), ytr).backward()
        opt.step()
        with torch.no_grad():
            vl = nn.functional.mse_loss(model(xva), yva).item()
        if stopper.step(vl, model):
            break
    final_w = model.weight.detach().clone()  # ok
    stopper.restore(model)
    with torch.no_grad():
        restored_vl = nn.functional.mse_loss(model(xva), yva).item()
    same = torch.equal(model.weight, final_w)
    print(f"{stopper_cls.__name__}: best={stopper.best:.4f} restored={restored_vl:.4f} restored_is_final={same}")


run(EarlyStopping)
run(SafeEarlyStopping)
