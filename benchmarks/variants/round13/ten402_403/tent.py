"""Test-time adaptation by entropy minimisation on normalization affine parameters."""
from copy import deepcopy

import torch
from torch import nn


def softmax_entropy(logits):
    return -(logits.softmax(1) * logits.log_softmax(1)).sum(1)


def configure_model(model):
    model.train()
    model.requires_grad_(False)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.requires_grad_(True)
            m.track_running_stats = False
            m.running_mean = None
            m.running_var = None
    return model


def collect_params(model):
    params = []
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            params += [m.weight, m.bias]  # ok
    return params


class Tent(nn.Module):
    def __init__(self, model, optimizer, steps=1, episodic=False):
        super().__init__()
        self.model = model
        self.optimizer = optimizer
        self.steps = steps
        self.episodic = episodic
        self.model_state = model.state_dict().copy()  # expect: TEN402
        self.optimizer_state = deepcopy(optimizer.state_dict())  # ok

    def reset(self):
        self.model.load_state_dict(self.model_state, strict=True)
        self.optimizer.load_state_dict(self.optimizer_state)

    def forward(self, x):
        if self.episodic:
            self.reset()
        for _ in range(self.steps):
            outputs = self.model(x)
            loss = softmax_entropy(outputs).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
        return outputs


def small_cnn():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5),
    )


def adapt_stream(n_batches=4, episodic=True, seed=0):
    torch.manual_seed(seed)
    model = configure_model(small_cnn())
    opt = torch.optim.SGD(collect_params(model), lr=0.5, momentum=0.9)
    tented = Tent(model, opt, steps=2, episodic=episodic)
    outs = []
    for b in range(n_batches):
        x = torch.randn(8, 3, 8, 8) * (1 + b) + b
        outs.append(tented(x).detach())
    return tented, outs


if __name__ == "__main__":
    tented, outs = adapt_stream()
    bn = tented.model[1]
    print("bn weight after episodic stream:", bn.weight.detach()[:4].tolist())
