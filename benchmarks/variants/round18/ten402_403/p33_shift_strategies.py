"""Pluggable 'shift by k along the last axis' strategies selected from a table."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def shift_naive(t, k):
    t[..., k:] = t[..., :-k]  # expect: TEN403
    t[..., :k] = 0
    return t


def shift_clone(t, k):
    t[..., k:] = t[..., :-k].clone()  # ok
    t[..., :k] = 0
    return t


def shift_roll(t, k):
    t.copy_(torch.roll(t, k, dims=-1))  # ok
    t[..., :k] = 0
    return t


def shift_numpy(t, k):
    a = t.numpy()
    a[..., k:] = a[..., :-k]  # ok
    a[..., :k] = 0
    return t


def shift_index(t, k):
    idx = torch.arange(t.shape[-1] - k)
    t[..., k:] = t.index_select(-1, idx)  # ok
    t[..., :k] = 0
    return t


SHIFTERS = {
    "naive": shift_naive,
    "clone": shift_clone,
    "roll": shift_roll,
    "numpy": shift_numpy,
    "index": shift_index,
}


def run(name, k=2):
    buf = torch.arange(2 * 24, dtype=torch.float32).reshape(2, 24)
    fn = SHIFTERS[name]
    for _ in range(3):
        fn(buf, k)
    return buf


if __name__ == "__main__":
    ref = run("clone")
    for name in SHIFTERS:
        print(f"{name:6s}", torch.equal(run(name), ref))
