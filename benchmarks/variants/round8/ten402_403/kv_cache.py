"""KV caches for long-running chat inference with a bounded attention window."""
import torch


class SlidingWindowKVCache:
    def __init__(self, batch, n_heads, window, head_dim, device="cuda", dtype=torch.float16):
        self.window = window
        self.kv = torch.zeros(2, batch, n_heads, window, head_dim, device=device, dtype=dtype)
        self.pos = 0

    def reset(self):
        self.pos = 0

    def update(self, k_new, v_new):
        t = k_new.shape[2]
        if t >= self.window:
            k_new, v_new = k_new[:, :, -self.window:], v_new[:, :, -self.window:]
            t = self.window
            self.pos = 0
        elif self.pos + t > self.window:
            drop = self.pos + t - self.window
            keep = self.pos - drop
            self.kv[..., :keep, :].copy_(self.kv[..., drop:self.pos, :])  # expect: TEN403
            self.pos = keep
        self.kv[0, :, :, self.pos:self.pos + t] = k_new
        self.kv[1, :, :, self.pos:self.pos + t] = v_new
        self.pos += t
        return self.kv[0, :, :, : self.pos], self.kv[1, :, :, : self.pos]


class SinkKVCache:
    """Keeps the first `n_sink` positions plus a recent window (StreamingLLM style)."""

    def __init__(self, batch, n_heads, max_len, head_dim, n_sink=4, device="cuda", dtype=torch.float16):
        self.max_len = max_len
        self.n_sink = n_sink
        self.kv = torch.zeros(2, batch, n_heads, max_len, head_dim, device=device, dtype=dtype)
        self.pos = 0

    def _evict(self, need):
        drop = self.pos + need - self.max_len
        keep = self.pos - drop
        new_kv = torch.empty_like(self.kv)
        new_kv[..., : self.n_sink, :] = self.kv[..., : self.n_sink, :]  # ok
        new_kv[..., self.n_sink:keep, :] = self.kv[..., self.n_sink + drop:self.pos, :]  # ok
        self.kv = new_kv
        self.pos = keep

    def update(self, k_new, v_new):
        t = k_new.shape[2]
        if self.pos + t > self.max_len:
            self._evict(t)
        self.kv[0, :, :, self.pos:self.pos + t] = k_new
        self.kv[1, :, :, self.pos:self.pos + t] = v_new
        self.pos += t
        return self.kv[0, :, :, : self.pos], self.kv[1, :, :, : self.pos]


class LayerCaches:
    def __init__(self, n_layers, factory):
        self.layers = [factory() for _ in range(n_layers)]

    def __getitem__(self, i):
        return self.layers[i]

    def reset(self):
        for c in self.layers:
            c.pos = 0
