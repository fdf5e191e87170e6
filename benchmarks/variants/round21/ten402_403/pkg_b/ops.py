import torch


def shift_right(buf, k):
    """Delay each row of a (rows, time) buffer by k samples in place; caller fills buf[:, :k]."""
    buf[:, k:] = buf[:, :-k]  # expect: TEN403


def shift_right_safe(buf, k):
    buf[:, k:] = buf[:, :-k].clone()  # ok


def copy_into(dst, src):
    """Generic in-place copy used all over the pipeline."""
    dst.copy_(src)  # either: TEN403


def append_newest(buf, x):
    return torch.cat([buf[:, x.shape[1]:], x], dim=1)  # ok
