"""Fixed-capacity KV cache with attention sinks (StreamingLLM) for long-running generation."""
import torch


class SinkKVCache:
    def __init__(self, batch, n_heads, head_dim, capacity=2048, sink_tokens=4,
                 dtype=torch.float16, device="cuda"):
        self.capacity = capacity
        self.sink = sink_tokens
        self.k = torch.zeros(batch, n_heads, capacity, head_dim, dtype=dtype, device=device)
        self.v = torch.zeros(batch, n_heads, capacity, head_dim, dtype=dtype, device=device)
        self.length = 0

    def _evict(self, n_new):
        """Drop the oldest non-sink entries so that `n_new` tokens fit."""
        shift = self.length + n_new - self.capacity
        if shift <= 0:
            return
        s, end = self.sink, self.length
        self.k[:, :, s:end - shift] = self.k[:, :, s + shift:end]  # expect: TEN403
        self.v[:, :, s:end - shift] = self.v[:, :, s + shift:end].clone()  # ok
        self.length -= shift

    def update(self, k_new, v_new):
        n = k_new.shape[2]
        self._evict(n)
        self.k[:, :, self.length:self.length + n] = k_new
        self.v[:, :, self.length:self.length + n] = v_new
        self.length += n
        return self.k[:, :, : self.length], self.v[:, :, : self.length]

    def positions(self, device=None):
        return torch.arange(self.length, device=device or self.k.device)


class LayeredCache:
    def __init__(self, n_layers, **kw):
        self.layers = [SinkKVCache(**kw) for _ in range(n_layers)]

    def __getitem__(self, i):
        return self.layers[i]

    def reorder(self, beam_idx):
        for layer in self.layers:
            layer.k = layer.k.index_select(0, beam_idx)
            layer.v = layer.v.index_select(0, beam_idx)
