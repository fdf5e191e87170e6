"""Fixed-length context buffers for streaming inference."""
import numpy as np
import torch


def push(buf: torch.Tensor, chunk: torch.Tensor) -> torch.Tensor:
    """Append `chunk` at the end of `buf` in place, dropping the oldest samples."""
    n = chunk.shape[-1]
    if n >= buf.shape[-1]:
        buf.copy_(chunk[..., -buf.shape[-1]:])  # ok
        return buf
    buf[..., :-n] = buf[..., n:]  # expect: TEN403
    buf[..., -n:] = chunk
    return buf


def push_np(buf: np.ndarray, chunk: np.ndarray) -> np.ndarray:
    n = chunk.shape[-1]
    buf[..., :-n] = buf[..., n:]  # ok
    buf[..., -n:] = chunk
    return buf


def pushed(buf: torch.Tensor, chunk: torch.Tensor) -> torch.Tensor:
    return torch.cat((buf[..., chunk.shape[-1]:], chunk), dim=-1)  # ok
