"""Sliding-window KV caches and streaming state buffers."""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class CacheState:
    k: torch.Tensor
    v: torch.Tensor


class SlidingKVCache(nn.Module):
    def __init__(self, n_heads=2, window=16, head_dim=4, evict=4):
        super().__init__()
        self.window, self.evict = window, evict
        self.state = CacheState(torch.zeros(1, n_heads, window, head_dim), torch.zeros(1, n_heads, window, head_dim))
        self.register_buffer("pos_ids", torch.arange(window))

    def evict_oldest(self):
        e = self.evict
        self.state.k[:, :, :-e] = self.state.k[:, :, e:]  # expect: TEN403
        self.state.v[:, :, :-e] = self.state.v[:, :, e:].clone()  # ok
        self.pos_ids[:-self.evict] = self.pos_ids[self.evict:]  # expect: TEN403


class RollingCache:
    def __init__(self, batch=1, heads=2, max_len=32, dim=4, sink=2):
        self.keys = torch.zeros(batch, heads, max_len, dim)
        self.sink = sink
        self.max_len = max_len

    def drop_after_sink(self, n):
        """StreamingLLM-style: keep attention sinks, drop the next n entries."""
        s = self.sink
        self.keys[:, :, s:-n] = self.keys[:, :, s + n:]  # expect: TEN403

    def narrow_roll(self, n):
        L = self.max_len
        self.keys.narrow(2, 0, L - n).copy_(self.keys.narrow(2, n, L - n))  # either

    def roll_fixed(self, n):
        self.keys = torch.roll(self.keys, shifts=-n, dims=2)  # ok
        self.keys[:, :, -n:] = 0


class ConvStateCache:
    """Mamba-style causal-conv state: shift left by one, append the new column."""

    def __init__(self, d=8, k=4):
        self.conv_state = torch.zeros(1, d, k)

    def update(self, x_t):
        self.conv_state.data[:, :, :-1] = self.conv_state.data[:, :, 1:]  # expect: TEN403
        self.conv_state[:, :, -1] = x_t
        return self.conv_state

    def update_fixed(self, x_t):
        self.conv_state.copy_(torch.roll(self.conv_state, shifts=-1, dims=-1))  # ok
        self.conv_state[:, :, -1] = x_t
        return self.conv_state


def grow_prefix(cache: torch.Tensor, n_new: int):
    """Right-align: move the cached prefix right to make room at the front."""
    cache[:, :, n_new:].copy_(cache[:, :, :-n_new].detach())  # expect: TEN403
    return cache


if __name__ == "__main__":
    torch.manual_seed(0)
    c = SlidingKVCache()
    c.state.k.normal_()
    ref = c.state.k.clone(); ref[:, :, :-4] = c.state.k[:, :, 4:].clone()
    try:
        c.evict_oldest()
    except RuntimeError as e:
        print("pos_ids raised:", str(e)[:50])
    print("kv evict wrong:", (c.state.k != ref).sum().item())
    rc = RollingCache(); rc.keys.normal_()
    ref = rc.keys.clone(); ref[:, :, 2:-3] = rc.keys[:, :, 5:].clone()
    rc.drop_after_sink(3)
    print("sink drop wrong:", (rc.keys != ref).sum().item())
    cs = ConvStateCache(); cs.conv_state.normal_()
    ref = cs.conv_state.clone(); ref[:, :, :-1] = cs.conv_state[:, :, 1:].clone(); ref[:, :, -1] = 1.0
    print("conv state wrong:", (cs.update(torch.ones(1, 8)) != ref).sum().item())
    x = torch.randn(1, 2, 40, 4)
    ref = x.clone(); ref[:, :, 3:] = x[:, :, :-3].clone()
    print("grow_prefix wrong:", (grow_prefix(x.clone(), 3) != ref).sum().item())
    rc = RollingCache(); rc.keys.normal_()
    ref = rc.keys.clone(); ref[:, :, :-5] = rc.keys[:, :, 5:].clone()
    rc.narrow_roll(5)
    print("narrow roll wrong:", (rc.keys != ref).sum().item())
