import torch.nn as nn


def make_qnet(in_dim, n_actions, hidden=32):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))
