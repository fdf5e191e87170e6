"""Hand-rolled stochastic weight averaging with a fallback to the pre-SWA weights.

Loosely follows torch.optim.swa_utils.AveragedModel / SWALR usage in
training scripts that keep the pre-SWA solution in case averaging hurts.
"""
import torch
from torch import nn


class SWAState:
    def __init__(self):
        self.n_averaged = 0
        self.avg = None

    @torch.no_grad()
    def update(self, model):
        if self.avg is None:
            self.avg = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
            self.n_averaged = 1
            return
        self.n_averaged += 1
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.avg[k] += (v - self.avg[k]) / self.n_averaged


def evaluate(model, data):
    x, y = data
    with torch.no_grad():
        return nn.functional.cross_entropy(model(x), y).item()


def train_with_swa(model, train_data, val_data, epochs=20, swa_start=10, lr=0.2, swa_lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    swa = SWAState()
    pre_swa_state = None
    x, y = train_data
    for epoch in range(epochs):
        if epoch == swa_start:
            pre_swa_state = dict(model.state_dict())  # expect: TEN402
            for g in opt.param_groups:
                g["lr"] = swa_lr
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        if epoch >= swa_start:
            swa.update(model)

    pre_swa_loss = None
    if pre_swa_state is not None:
        model.load_state_dict(pre_swa_state)
        pre_swa_loss = evaluate(model, val_data)
    model.load_state_dict(swa.avg)
    swa_loss = evaluate(model, val_data)
    if pre_swa_loss is not None and pre_swa_loss < swa_loss:
        model.load_state_dict(pre_swa_state)
    return pre_swa_loss, swa_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 3))
    tr = (torch.randn(64, 10), torch.randint(0, 3, (64,)))
    va = (torch.randn(32, 10), torch.randint(0, 3, (32,)))
    print(train_with_swa(net, tr, va))
