"""In-place shift helpers (parameters: buffer, shift amount, dim)."""
import torch


def shift_right_(buf, k, dim=-1):
    """Move everything k steps towards the end of `dim`; the first k slots keep stale data."""
    n = buf.size(dim)
    buf.narrow(dim, k, n - k).copy_(buf.narrow(dim, 0, n - k))  # expect: TEN403
    return buf


def drop_oldest_(buf, k):
    """Time-major buffer (T, ...): discard the first k rows."""
    buf[:-k] = buf[k:]  # expect: TEN403
    buf[-k:] = 0
    return buf


def delay_(buf, k):
    """Batch-major buffer (B, T): delay every row by k."""
    buf[:, k:] = buf[:, :-k]  # expect: TEN403
    buf[:, :k] = 0
    return buf


def delay_safe_(buf, k):
    buf[:, k:] = buf[:, :-k].clone()  # ok
    buf[:, :k] = 0
    return buf


def delayed(buf, k):
    out = torch.roll(buf, shifts=k, dims=1)  # ok
    out[:, :k] = 0
    return out


def copy_block_(dst, src, k):
    dst[:, k:] = src[:, :-k]  # ok
    return dst
