"""A small training script with the classic `.data` mistakes (TEN101, TEN102, TEN103)."""
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def init(m):
    nn.init.xavier_uniform_(m.weight.data)
    m.bias.data.fill_(0.0)


def step(x, y, lr=0.1):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
        p.grad.zero_()
    return loss.data.item()


def load(weights):
    model.weight.data = weights
