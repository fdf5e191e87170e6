"""Sliding-window KV cache for incremental decoding with a single attention layer.
The cache keeps the last WINDOW keys/values; when full, the oldest entry is dropped."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

D, WINDOW = 8, 4


class SlidingKVCache:
    """Batch of one sequence: k, v have shape (1, WINDOW, D)."""

    def __init__(self, mode="shift"):
        self.k = torch.zeros(1, WINDOW, D)
        self.v = torch.zeros(1, WINDOW, D)
        self.len = 0
        self.mode = mode
        self.failures = {"k": 0, "v": 0}

    def append(self, k_new, v_new):
        if self.len < WINDOW:
            self.k[:, self.len] = k_new
            self.v[:, self.len] = v_new
            self.len += 1
            return
        if self.mode == "shift":
            try:
                self.k[:, :-1] = self.k[:, 1:]  # expect: TEN403
            except RuntimeError:
                self.failures["k"] += 1
            try:
                self.v[:, :-1].copy_(self.v[:, 1:])  # expect: TEN403
            except RuntimeError:
                self.failures["v"] += 1
        elif self.mode == "clone":
            self.k[:, :-1] = self.k[:, 1:].clone()  # ok
            self.v[:, :-1] = self.v[:, 1:].clone()  # ok
        self.k[:, -1] = k_new
        self.v[:, -1] = v_new


class CatKVCache:
    def __init__(self):
        self.k = torch.zeros(1, 0, D)
        self.v = torch.zeros(1, 0, D)

    def append(self, k_new, v_new):
        self.k = torch.cat([self.k, k_new.unsqueeze(1)], dim=1)[:, -WINDOW:]  # ok
        self.v = torch.cat([self.v, v_new.unsqueeze(1)], dim=1)[:, -WINDOW:]  # ok


class BatchedSlidingKVCache:
    """(B, WINDOW, D) with B > 1: the same left shift runs on a strided view."""

    def __init__(self, batch):
        self.k = torch.zeros(batch, WINDOW, D)
        self.len = 0

    def append(self, k_new):
        if self.len < WINDOW:
            self.k[:, self.len] = k_new
            self.len += 1
            return
        self.k[:, :-1] = self.k[:, 1:]  # either: TEN403
        self.k[:, -1] = k_new


def decode(cache, q, ks, vs):
    outs = []
    for t in range(ks.shape[1]):
        cache.append(ks[:, t], vs[:, t])
        n = getattr(cache, "len", cache.k.shape[1])
        att = F.scaled_dot_product_attention(q[:, t:t + 1], cache.k[:, :n], cache.v[:, :n])
        outs.append(att)
    return torch.cat(outs, 1)


if __name__ == "__main__":
    T = 7
    q, ks, vs = torch.randn(1, T, D), torch.randn(1, T, D), torch.randn(1, T, D)
    ref = decode(CatKVCache(), q, ks, vs)
    for mode in ("shift", "clone"):
        cache = SlidingKVCache(mode)
        out = decode(cache, q, ks, vs)
        print(f"SlidingKVCache({mode}): max|out-ref|={(out - ref).abs().max().item():.6f} "
              f"failed shifts={cache.failures}")
    bc = BatchedSlidingKVCache(batch=3)
    kb = torch.randn(3, T, D)
    for t in range(T):
        bc.append(kb[:, t])
    print(f"BatchedSlidingKVCache keeps last window: {torch.equal(bc.k, kb[:, -WINDOW:])}")
