"""Sliding-window KV cache for incremental decoding (time-major layout: T, B, H, D)."""
import torch


class SlidingKVCache:
    def __init__(self, window, batch, heads, dim):
        self.window = window
        self.k = torch.zeros(window, batch, heads, dim)
        self.v = torch.zeros(window, batch, heads, dim)
        self.length = 0

    def _evict(self, n):
        self.k[:-n], self.v[:-n] = self.k[n:], self.v[n:]  # expect: TEN403

    def append(self, k_new, v_new):
        n = k_new.shape[0]
        overflow = self.length + n - self.window
        if overflow > 0:
            self._evict(overflow)
            self.length -= overflow
        self.k[self.length:self.length + n] = k_new  # ok
        self.v[self.length:self.length + n] = v_new  # ok
        self.length += n

    def attend(self, q):
        k, v = self.k[:self.length], self.v[:self.length]
        scores = torch.einsum("bhd,tbhd->bht", q, k) / k.shape[-1] ** 0.5
        return torch.einsum("bht,tbhd->bhd", scores.softmax(-1), v)


class SlidingKVCacheRoll(SlidingKVCache):
    def _evict(self, n):
        self.k = torch.roll(self.k, shifts=-n, dims=0)  # ok
        self.v = torch.roll(self.v, shifts=-n, dims=0)  # ok


class SlidingKVCacheCopy(SlidingKVCache):
    def _evict(self, n):
        self.k[:-n] = self.k[n:].clone()  # ok
        self.v[:-n].copy_(self.v[n:].clone())  # ok


class BatchMajorKVCache(SlidingKVCache):
    """Same cache, but stored (B, H, T, D) as many HF-style models do."""

    def __init__(self, window, batch, heads, dim):
        super().__init__(window, batch, heads, dim)
        self.k = self.k.permute(1, 2, 0, 3).contiguous()
        self.v = self.v.permute(1, 2, 0, 3).contiguous()

    def _evict(self, n):
        self.k[:, :, :-n] = self.k[:, :, n:]  # either
        self.v[:, :, :-n] = self.v[:, :, n:]  # either

    def append(self, k_new, v_new):
        n = k_new.shape[0]
        overflow = self.length + n - self.window
        if overflow > 0:
            self._evict(overflow)
            self.length -= overflow
        self.k[:, :, self.length:self.length + n] = k_new.permute(1, 2, 0, 3)  # ok
        self.v[:, :, self.length:self.length + n] = v_new.permute(1, 2, 0, 3)  # ok
        self.length += n

    def attend(self, q):
        k, v = self.k[:, :, :self.length], self.v[:, :, :self.length]
        scores = torch.einsum("bhd,bhtd->bht", q, k) / k.shape[-1] ** 0.5
        return torch.einsum("bht,bhtd->bhd", scores.softmax(-1), v)


def decode(cache_cls, steps=10):
    torch.manual_seed(0)
    B, H, D, W = 2, 2, 4, 6
    cache = cache_cls(W, B, H, D)
    history_k, history_v, errs = [], [], []
    for t in range(steps):
        k_t, v_t, q_t = torch.randn(1, B, H, D), torch.randn(1, B, H, D), torch.randn(B, H, D)
        history_k.append(k_t)
        history_v.append(v_t)
        cache.append(k_t, v_t)
        out = cache.attend(q_t)
        k_ref, v_ref = torch.cat(history_k[-W:]), torch.cat(history_v[-W:])
        ref = torch.einsum("bht,tbhd->bhd", (torch.einsum("bhd,tbhd->bht", q_t, k_ref) / D ** 0.5).softmax(-1), v_ref)
        errs.append((out - ref).abs().max().item())
    return max(errs)


if __name__ == "__main__":
    for cls in (SlidingKVCache, SlidingKVCacheRoll, SlidingKVCacheCopy, BatchMajorKVCache):
        try:
            print(f"{cls.__name__}: max error vs full recompute {decode(cls):.2e}")
        except RuntimeError as err:
            print(f"{cls.__name__}: {str(err)[:60]}")
