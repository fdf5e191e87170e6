"""Circularly rotate per-row position embeddings, a few different ways."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def rotate_tuple(a):
    a = a.clone()
    a[:, 1:], a[:, :1] = a[:, :-1], a[:, -1:]  # expect: TEN403
    return a


def rotate_tuple_cloned(a):
    a = a.clone()
    a[:, 1:], a[:, :1] = a[:, :-1].clone(), a[:, -1:].clone()  # ok
    return a


def rotate_roll(a):
    return torch.roll(a, shifts=1, dims=1)  # ok


def rotate_numpy(a):
    arr = a.numpy().copy()
    last = arr[:, -1:].copy()
    arr[:, 1:] = arr[:, :-1]  # ok
    arr[:, :1] = last
    return torch.from_numpy(arr)


def swap_halves(a):
    a = a.clone()
    h = a.shape[1] // 2
    a[:, :h], a[:, h:] = a[:, h:].clone(), a[:, :h].clone()  # ok
    return a


if __name__ == "__main__":
    emb = torch.randn(4, 24)
    ref = rotate_roll(emb)
    for fn in (rotate_tuple, rotate_tuple_cloned, rotate_roll, rotate_numpy, swap_halves):
        out = fn(emb)
        print(f"{fn.__name__:>20}: matches roll = {torch.allclose(out, ref)}")
