"""Synthetic 'image' classification data."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n_train=64, n_val=24, batch_size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(4, 1, 6, 6, generator=g)
    def sample(n):
        y = torch.randint(0, 4, (n,), generator=g)
        x = protos[y] + 0.5 * torch.randn(n, 1, 6, 6, generator=g)
        return TensorDataset(x, y)
    train = DataLoader(sample(n_train), batch_size=batch_size, shuffle=True, generator=g)
    val = DataLoader(sample(n_val), batch_size=batch_size)
    return train, val
