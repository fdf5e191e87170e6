"""Low-level shift helpers operating in place on an argument tensor."""
import torch


def shift_right_(buf, k, fill=0.0):
    """Shift along the last dim by k, in place."""
    buf[..., k:] = buf[..., :-k]  # expect: TEN403
    buf[..., :k] = fill
    return buf


def shift_left_(buf, k, fill=0.0):
    buf[..., :-k].copy_(buf[..., k:])  # expect: TEN403
    buf[..., -k:] = fill
    return buf


def shift_right(buf, k, fill=0.0):
    out = torch.full_like(buf, fill)
    out[..., k:] = buf[..., :-k]  # ok
    return out


def shift_left_safe_(buf, k, fill=0.0):
    buf[..., :-k].copy_(buf[..., k:].clone())  # ok
    buf[..., -k:] = fill
    return buf


def push_back_(buf, x):
    k = x.shape[-1]
    buf.copy_(torch.cat([buf[..., k:], x], -1))  # ok
    return buf
