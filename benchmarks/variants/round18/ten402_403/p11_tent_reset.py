"""Test-time entropy minimisation (TENT) with episodic reset."""
from copy import deepcopy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def softmax_entropy(x):
    return -(x.softmax(1) * x.log_softmax(1)).sum(1)


def configure_model(model):
    model.train()
    model.requires_grad_(False)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.requires_grad_(True)
    return model


def collect_params(model):
    params = []
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            params += [m.weight, m.bias]
    return params


def copy_model_and_optimizer(model, optimizer):
    model_state = deepcopy(model.state_dict())  # ok
    optimizer_state = deepcopy(optimizer.state_dict())  # ok
    return model_state, optimizer_state


def load_model_and_optimizer(model, optimizer, model_state, optimizer_state):
    model.load_state_dict(model_state, strict=True)
    optimizer.load_state_dict(optimizer_state)


class Tent(nn.Module):
    def __init__(self, model, optimizer, steps=1, episodic=True):
        super().__init__()
        self.model, self.optimizer = model, optimizer
        self.steps, self.episodic = steps, episodic
        self.model_state, self.optimizer_state = copy_model_and_optimizer(model, optimizer)

    def forward(self, x):
        if self.episodic:
            self.reset()
        for _ in range(self.steps):
            out = self.model(x)
            loss = softmax_entropy(out).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
        return out

    def reset(self):
        load_model_and_optimizer(self.model, self.optimizer, self.model_state, self.optimizer_state)


class FastTent(Tent):
    """Skips the deep copy because "load_state_dict copies anyway"."""

    def __init__(self, model, optimizer, steps=1, episodic=True):
        nn.Module.__init__(self)
        self.model, self.optimizer = model, optimizer
        self.steps, self.episodic = steps, episodic
        self.model_state = model.state_dict()  # expect: TEN402
        self.optimizer_state = optimizer.state_dict()  # either


def build():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(5, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3))


if __name__ == "__main__":
    for cls in (Tent, FastTent):
        model = configure_model(build())
        opt = torch.optim.SGD(collect_params(model), lr=0.5, momentum=0.9)
        tented = cls(model, opt, steps=2)
        for i in range(3):
            tented(torch.randn(16, 5) * (1 + i))
        tented.reset()
        bn = model[1]
        print(cls.__name__, "BN weight after reset:", round(bn.weight.sum().item(), 4),
              "running mean:", round(bn.running_mean.abs().sum().item(), 4))
