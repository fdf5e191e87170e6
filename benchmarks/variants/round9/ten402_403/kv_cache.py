"""Fixed-size KV caches for incremental decoding."""
import torch


class SlidingWindowCache:
    """Keeps the last ``window`` keys/values per layer, oldest first."""

    def __init__(self, num_layers, batch, heads, window, head_dim, dtype=torch.float16, device="cuda"):
        shape = (batch, heads, window, head_dim)
        self.k = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.v = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(num_layers)]
        self.window = window
        self.length = 0

    def update(self, layer, k_new, v_new):
        """``k_new``/``v_new``: (B, H, 1, D) for one decoding step. Returns the valid prefix."""
        k, v = self.k[layer], self.v[layer]
        pos = self.length
        if pos == self.window:
            k[:, :, :-1] = k[:, :, 1:]  # expect: TEN403
            v[:, :, :-1] = v[:, :, 1:].clone()  # ok
            pos -= 1
        k[:, :, pos] = k_new[:, :, 0]
        v[:, :, pos] = v_new[:, :, 0]
        if layer == len(self.k) - 1:
            self.length = pos + 1
        return k[:, :, : pos + 1], v[:, :, : pos + 1]


class SinkCache:
    """Attention-sink cache (StreamingLLM): the first ``n_sink`` positions are kept forever,
    everything after them is a sliding window."""

    def __init__(self, batch, heads, capacity, head_dim, n_sink=4, dtype=torch.float16, device="cuda"):
        self.keys = torch.zeros(batch, heads, capacity, head_dim, dtype=dtype, device=device)
        self.values = torch.zeros(batch, heads, capacity, head_dim, dtype=dtype, device=device)
        self.capacity = capacity
        self.n_sink = n_sink
        self.used = 0

    def append(self, k_new, v_new):
        if self.used == self.capacity:
            s = self.n_sink
            self.keys[:, :, s:-1] = self.keys[:, :, s + 1:]  # expect: TEN403
            rest = self.values[:, :, s + 1:]
            self.values = torch.cat([self.values[:, :, :s], rest, torch.zeros_like(rest[:, :, :1])], dim=2)  # ok
            self.used -= 1
        self.keys[:, :, self.used] = k_new[:, :, 0]
        self.values[:, :, self.used] = v_new[:, :, 0]
        self.used += 1
        return self.keys[:, :, : self.used], self.values[:, :, : self.used]

    def reorder(self, beam_idx):
        self.keys = self.keys.index_select(0, beam_idx)
        self.values = self.values.index_select(0, beam_idx)
