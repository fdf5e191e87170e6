"""Snapshot ensembles (cyclic cosine LR): one member is saved at the end of each cycle."""
import copy
import math

import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)


class SnapshotEnsemble:
    def __init__(self):
        self.member_params = []
        self.member_models = []

    def add(self, model):
        self.member_params.append([p for p in model.parameters()])  # expect: TEN402
        self.member_models.append(copy.deepcopy(model))  # ok

    @torch.no_grad()
    def predict_params(self, model, x):
        names = [n for n, _ in model.named_parameters()]
        outs = [functional_call(model, dict(zip(names, ps)), (x,)).softmax(-1) for ps in self.member_params]
        return torch.stack(outs).mean(0)

    @torch.no_grad()
    def predict_models(self, x):
        return torch.stack([m(x).softmax(-1) for m in self.member_models]).mean(0)


if __name__ == "__main__":
    x = torch.randn(80, 6)
    y = (x[:, 0] * x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    ens = SnapshotEnsemble()
    cycle = 10
    for step in range(30):
        for g in opt.param_groups:
            g["lr"] = 0.25 * (1 + math.cos(math.pi * (step % cycle) / cycle))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cycle == cycle - 1:
            ens.add(model)
    p1 = ens.predict_params(model, x)
    p2 = ens.predict_models(x)
    print(f"ensemble(params) nll {nn.functional.nll_loss(p1.log(), y).item():.6f}")
    print(f"ensemble(models) nll {nn.functional.nll_loss(p2.log(), y).item():.6f}")
