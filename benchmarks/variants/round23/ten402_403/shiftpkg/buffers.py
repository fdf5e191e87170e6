"""Helpers that move data along the time axis of a buffer in place."""
import torch


def push_front(buf, item):
    """Insert `item` at index 0, dropping the oldest entry at the end."""
    buf[1:] = buf[:-1]  # expect: TEN403
    buf[0] = item
    return buf


def push_front_safe(buf, item):
    buf[1:] = buf[:-1].clone()  # ok
    buf[0] = item
    return buf


def delay_last_axis(t, k):
    """Delay the last axis by k samples (zero padding at the front)."""
    t[..., k:].copy_(t[..., :-k])  # expect: TEN403
    t[..., :k] = 0
    return t


def delay_last_axis_roll(t, k):
    out = torch.roll(t, shifts=k, dims=-1)  # ok
    out[..., :k] = 0
    return out


def overwrite_from(dst, src):
    """dst and src are different tensors."""
    dst[..., 1:] = src[..., :-1]  # ok
    return dst
