"""Buffer helpers shared by the streaming front-end."""
import torch


def shift_left(buf: torch.Tensor, k: int) -> torch.Tensor:
    """Drop the oldest k rows of a time-major buffer, leaving room at the end."""
    if k == 0:
        return buf
    buf[:-k] = buf[k:]  # expect: TEN403
    return buf


def shift_left_safe(buf: torch.Tensor, k: int) -> torch.Tensor:
    if k == 0:
        return buf
    buf[:-k] = buf[k:].clone()  # ok
    return buf


def shift_left_out(buf: torch.Tensor, k: int, out: torch.Tensor) -> torch.Tensor:
    out[:-k] = buf[k:]  # ok
    return out


def append_rows(buf: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    buf[-rows.shape[0]:] = rows  # ok
    return buf
