import torch


def make_split(n, seed, d=8, k=3):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = (x[:, :k] * torch.tensor([1.0, -1.0, 0.5])).argmax(1)
    return [(x[i:i + 16], y[i:i + 16]) for i in range(0, n, 16)]
