"""Sliding observation window maintained with Tensor.narrow."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def slide_narrow(win, new_col):
    L = win.shape[1]
    win.narrow(1, 1, L - 1).copy_(win.narrow(1, 0, L - 1))  # expect: TEN403
    win.narrow(1, 0, 1).copy_(new_col)  # ok
    return win


def slide_narrow_cloned(win, new_col):
    L = win.shape[1]
    older = torch.narrow(win, 1, 0, L - 1).clone()  # ok
    win.narrow(1, 1, L - 1).copy_(older)  # ok
    win.narrow(1, 0, 1).copy_(new_col)  # ok
    return win


def fold_halves(win):
    L = win.shape[1]
    win.narrow(1, 0, L // 2).copy_(win.narrow(1, L // 2, L // 2))  # ok
    return win


if __name__ == "__main__":
    stream = torch.randn(50, 3, 1)
    for fn in (slide_narrow, slide_narrow_cloned):
        win = torch.zeros(3, 32)
        for col in stream:
            fn(win, col)
        print(fn.__name__, round(win.sum().item(), 4), round(fold_halves(win.clone()).sum().item(), 4))
