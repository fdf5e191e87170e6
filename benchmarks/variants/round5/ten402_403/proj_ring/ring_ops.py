"""In-place helpers for fixed-size history tensors (no reallocation per step)."""
import torch


def shift_left(buf, n=1):
    """Drop the n oldest rows along dim 0 and free the last n slots."""
    buf[:-n] = buf[n:]  # expect: TEN403
    return buf


def push_front(hist, values):
    """hist: (batch, T) with column 0 the newest entry."""
    hist[:, 1:] = hist[:, :-1]  # expect: TEN403
    hist[:, 0] = values
    return hist


def push_back_safe(buf, row):
    buf[:-1] = buf[1:].clone()  # ok
    buf[-1] = row
    return buf


def append_copy(dst, src, n):
    """Copy the n newest rows of src into the tail of a different tensor."""
    dst[-n:] = src[-n:]  # ok
    return dst
