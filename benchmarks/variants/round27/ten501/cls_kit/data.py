import torch


def make_loader(n_batches, bs=16, d=6, k=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d, k, generator=g)
    out = []
    for _ in range(n_batches):
        x = torch.randn(bs, d, generator=g)
        out.append((x, (x @ w).argmax(1)))
    return out
