"""Stochastic weight averaging: a hand-rolled running mean and torch's AveragedModel."""
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR

torch.manual_seed(0)
torch.set_num_threads(1)


class RunningAverage:
    def __init__(self):
        self.averaged = None
        self.n = 0

    @torch.no_grad()
    def update(self, model):
        if self.averaged is None:
            self.averaged = [p.detach() for p in model.parameters()]  # expect: TEN402
        else:
            for avg, p in zip(self.averaged, model.parameters()):
                avg.add_((p.detach() - avg) / (self.n + 1))
        self.n += 1

    @torch.no_grad()
    def apply_to(self, model):
        for avg, p in zip(self.averaged, model.parameters()):
            p.copy_(avg)


class RunningAverageCopy(RunningAverage):
    @torch.no_grad()
    def update(self, model):
        if self.averaged is None:
            self.averaged = [p.detach().clone() for p in model.parameters()]  # ok
        else:
            for avg, p in zip(self.averaged, model.parameters()):
                avg.add_((p.detach() - avg) / (self.n + 1))  # ok
        self.n += 1


def swa_factory(model):
    return AveragedModel(model)  # ok


def run(avg_factory, epochs=12, swa_start=4):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(48, 3)
    y = x.sum(1, keepdim=True).sin()
    avg = avg_factory(model)
    sched = SWALR(opt, swa_lr=0.05) if isinstance(avg, AveragedModel) else None
    for epoch in range(epochs):
        for xb, yb in zip(x.split(16), y.split(16)):
            opt.zero_grad()
            nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
        if epoch >= swa_start:
            avg.update_parameters(model) if isinstance(avg, AveragedModel) else avg.update(model)
            if sched is not None:
                sched.step()
    final = [p.detach().clone() for p in model.parameters()]  # ok
    if isinstance(avg, AveragedModel):
        averaged = list(avg.module.parameters())
    else:
        avg.apply_to(model)
        averaged = list(model.parameters())
    return sum((a - f).abs().sum().item() for a, f in zip(averaged, final))


if __name__ == "__main__":
    print("running mean (alias)", run(lambda m: RunningAverage()))
    print("running mean (copy) ", round(run(lambda m: RunningAverageCopy()), 4))
    print("AveragedModel       ", round(run(swa_factory), 4))
