from typing import Optional, Tuple

import torch
import torch.nn.functional as F


class SlidingWindowCache:
    """Fixed-size KV cache for sliding-window attention during incremental decoding."""

    def __init__(self, batch_size, num_heads, window, head_dim, device=None, dtype=torch.float16):
        shape = (batch_size, num_heads, window, head_dim)
        self.k = torch.zeros(shape, device=device, dtype=dtype)
        self.v = torch.zeros(shape, device=device, dtype=dtype)
        self.window = window
        self.filled = 0
        self.seen = 0

    def update(self, k_new: torch.Tensor, v_new: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        t = k_new.shape[2]
        if t > self.window:
            k_new, v_new = k_new[:, :, -self.window:], v_new[:, :, -self.window:]
            t = self.window
        free = self.window - self.filled
        if t <= free:
            self.k[:, :, self.filled:self.filled + t] = k_new  # ok
            self.v[:, :, self.filled:self.filled + t] = v_new
            self.filled += t
        else:
            drop = t - free
            keep = self.filled - drop
            self.k[:, :, :keep], self.v[:, :, :keep] = self.k[:, :, drop:self.filled], self.v[:, :, drop:self.filled]  # expect: TEN403
            self.k[:, :, keep:keep + t] = k_new
            self.v[:, :, keep:keep + t] = v_new
            self.filled = self.window
        self.seen += t
        return self.k[:, :, :self.filled], self.v[:, :, :self.filled]

    def reorder(self, beam_idx: torch.Tensor) -> None:
        self.k = self.k.index_select(0, beam_idx)
        self.v = self.v.index_select(0, beam_idx)


class ConcatCache:
    """Reference implementation: grows by concatenation and trims to the window."""

    def __init__(self, window):
        self.window = window
        self.k: Optional[torch.Tensor] = None
        self.v: Optional[torch.Tensor] = None

    def update(self, k_new, v_new):
        if self.k is None:
            self.k, self.v = k_new, v_new
        else:
            self.k = torch.cat((self.k, k_new), dim=2)[:, :, -self.window:]  # ok
            self.v = torch.cat((self.v, v_new), dim=2)[:, :, -self.window:]
        return self.k, self.v


def decode_step(q, k_new, v_new, cache):
    k, v = cache.update(k_new, v_new)
    return F.scaled_dot_product_attention(q, k, v)
