"""Helpers shared by the experiment scripts."""
import copy

import torch
import torch.nn.functional as F


def get_state(model):
    return model.state_dict()


def get_state_copy(model):
    return copy.deepcopy(model.state_dict())


def finetune_head(model, data, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for x, y in data:
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def evaluate(model, data):
    with torch.no_grad():
        return sum(F.mse_loss(model(x), y).item() for x, y in data)
