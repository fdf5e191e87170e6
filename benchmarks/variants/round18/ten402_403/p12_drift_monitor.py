"""Callbacks that report how far the weights moved from where they started."""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector

torch.manual_seed(0)
torch.set_num_threads(1)


class DriftMonitor:
    def __init__(self, model, which="named_parameters"):
        self.model = model
        self.ref = {}
        for name, p in getattr(model, which)():
            self.ref[name] = p.detach()  # expect: TEN402

    def drift(self):
        return {n: (p.detach() - self.ref[n]).norm().item() for n, p in self.model.named_parameters()}


class ClonedDriftMonitor(DriftMonitor):
    def __init__(self, model, which="named_parameters"):
        self.model = model
        self.ref = {name: p.detach().clone() for name, p in getattr(model, which)()}  # ok


class VectorDriftMonitor:
    def __init__(self, model):
        self.model = model
        self.ref = parameters_to_vector(model.parameters()).detach()  # ok

    def drift(self):
        return {"all": (parameters_to_vector(self.model.parameters()).detach() - self.ref).norm().item()}


def train(model, monitors, steps=15):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = torch.randn(32, 4), torch.randn(32, 2)
    for step in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        if step % 5 == 4:
            for mon in monitors:
                print(type(mon).__name__, {k: round(v, 4) for k, v in mon.drift().items()})


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    train(model, [DriftMonitor(model), ClonedDriftMonitor(model), VectorDriftMonitor(model)])
