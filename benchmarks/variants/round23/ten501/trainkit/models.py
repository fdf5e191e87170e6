import torch.nn as nn


def make_mlp(d_in=6, d_hidden=16, n_classes=3):
    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, n_classes))
