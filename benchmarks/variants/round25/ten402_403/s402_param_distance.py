"""How far do the weights travel? (start point as vector vs. as list of parameters)"""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector


def make_model():
    return nn.Sequential(nn.Linear(5, 10), nn.Sigmoid(), nn.Linear(10, 1))


def train(model, steps=50):
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x = torch.randn(40, 5)
    y = x[:, :1] ** 2
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


torch.manual_seed(0)
model = make_model()
start_vec = parameters_to_vector(model.parameters())  # ok
start_list = list(model.parameters())  # expect: TEN402
train(model)
end_vec = parameters_to_vector(model.parameters())
print("travel (vector)", round((end_vec - start_vec.detach()).norm().item(), 6))
print("travel (list)", round(sum((p - s).norm().item() ** 2 for p, s in zip(model.parameters(), start_list)) ** 0.5, 6))
