"""Small helpers for fixed-length sample buffers used by stream.py."""
import torch


def make_buffer(channels, length, dtype=torch.float32):
    return torch.zeros(channels, length, dtype=dtype)


def advance(buffer, hop):
    """Drop the oldest `hop` samples (left side) to make room at the right end."""
    if hop <= 0:
        return buffer
    if hop >= buffer.shape[-1]:
        buffer.zero_()
        return buffer
    dst = buffer[..., :-hop]
    dst.copy_(buffer[..., hop:])  # expect: TEN403
    buffer[..., -hop:] = 0
    return buffer


def append(buffer, chunk):
    """Shift left by chunk length and write chunk at the end."""
    hop = chunk.shape[-1]
    advance(buffer, hop)
    buffer[..., -hop:] = chunk[..., -buffer.shape[-1]:]
    return buffer


def peak_dbfs(buffer, eps=1e-9):
    return 20.0 * torch.log10(buffer.abs().amax(dim=-1) + eps)


def rms(buffer):
    return buffer.pow(2).mean(dim=-1).sqrt()


def fade(buffer, n, fade_in=True):
    ramp = torch.linspace(0.0, 1.0, n, dtype=buffer.dtype)
    if fade_in:
        buffer[..., :n] *= ramp
    else:
        buffer[..., -n:] *= ramp.flip(0)
    return buffer
