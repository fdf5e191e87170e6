"""The same lag-1 shift applied through NumPy and through torch backends."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def numpy_shift(a):
    a[:, 1:] = a[:, :-1]  # ok
    a[:, 0] = 0
    return a


def torch_shift(t):
    t[:, 1:] = t[:, :-1]  # expect: TEN403
    t[:, 0] = 0  # ok
    return t


def torch_shift_safe(t):
    t[:, 1:] = t[:, :-1].clone()  # ok
    t[:, 0] = 0  # ok
    return t


def torch_shift_other(t):
    src = t.clone()
    t[:, 1:] = src[:, :-1]  # ok
    t[:, 0] = 0  # ok
    return t


BACKENDS = {
    "numpy": (np.array, numpy_shift),
    "torch": (torch.tensor, torch_shift),
    "torch-safe": (torch.tensor, torch_shift_safe),
    "torch-other": (torch.tensor, torch_shift_other),
}


if __name__ == "__main__":
    data = (np.arange(60, dtype=np.float32).reshape(2, 30) % 7).tolist()
    results = {}
    for name, (convert, fn) in BACKENDS.items():
        out = fn(convert(data, dtype=np.float32) if name == "numpy" else convert(data))
        results[name] = np.asarray(out)
    for name, arr in results.items():
        print(f"{name:>11}: equals numpy = {np.array_equal(arr, results['numpy'])}")
