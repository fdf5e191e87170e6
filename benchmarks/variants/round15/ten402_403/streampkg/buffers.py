import torch


def shift_left(buf, n):
    """Drop the oldest n samples of a (..., T) buffer in place."""
    buf[..., :-n] = buf[..., n:]  # expect: TEN403
    return buf


def shift_left_safe(buf, n):
    buf[..., :-n] = buf[..., n:].clone()  # ok
    return buf


def push(buf, chunk):
    buf[..., -chunk.shape[-1]:] = chunk  # ok
    return buf


def rolled(buf, n):
    return torch.roll(buf, shifts=-n, dims=-1)  # ok
