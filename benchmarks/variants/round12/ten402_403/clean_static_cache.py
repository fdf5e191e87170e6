import torch
import torch.nn as nn
import torch.nn.functional as F


class StaticKVCache(nn.Module):
    """Pre-allocated cache indexed by absolute position (no shifting)."""

    def __init__(self, max_batch, max_seq, n_heads, head_dim, dtype=torch.bfloat16):
        super().__init__()
        shape = (max_batch, n_heads, max_seq, head_dim)
        self.register_buffer("k_cache", torch.zeros(shape, dtype=dtype), persistent=False)
        self.register_buffer("v_cache", torch.zeros(shape, dtype=dtype), persistent=False)

    def update(self, input_pos: torch.Tensor, k_val: torch.Tensor, v_val: torch.Tensor):
        self.k_cache.index_copy_(2, input_pos, k_val)  # ok
        self.v_cache[:, :, input_pos] = v_val  # ok
        return self.k_cache, self.v_cache


class RotatingCache:
    """Sliding window kept as a rotating buffer plus a position map."""

    def __init__(self, batch, n_heads, window, head_dim):
        self.window = window
        self.k = torch.zeros(batch, n_heads, window, head_dim)
        self.v = torch.zeros(batch, n_heads, window, head_dim)
        self.pos = 0

    def append(self, k_new, v_new):
        slot = self.pos % self.window
        self.k[:, :, slot] = k_new.squeeze(2)
        self.v[:, :, slot] = v_new.squeeze(2)
        self.pos += 1
        return self.view()

    def view(self):
        if self.pos <= self.window:
            return self.k[:, :, : self.pos], self.v[:, :, : self.pos]
        start = self.pos % self.window
        order = torch.cat([torch.arange(start, self.window), torch.arange(0, start)])  # ok
        return self.k[:, :, order], self.v[:, :, order]

    def compact(self):
        """Rewrite the buffer in chronological order (fresh tensors)."""
        k, v = self.view()
        self.k = k.contiguous().clone()  # ok
        self.v = v.contiguous().clone()
        self.pos = min(self.pos, self.window)


def decode_step(q, cache: StaticKVCache, pos: int, k, v):
    input_pos = torch.tensor([pos], device=q.device)
    kc, vc = cache.update(input_pos, k, v)
    mask = torch.arange(kc.shape[2], device=q.device) <= pos
    return F.scaled_dot_product_attention(q, kc, vc, attn_mask=mask)
