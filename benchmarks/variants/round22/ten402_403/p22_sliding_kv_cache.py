"""Greedy decoding with a sliding-window KV cache (tiny single-layer attention)."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class TinyAttn(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def split(self, t):
        return t.view(self.h, self.dh)


class TimeMajorCache:
    """k, v of shape (window, heads, head_dim): slot -1 is the newest token."""

    def __init__(self, window, heads, dh):
        self.k = torch.zeros(window, heads, dh)
        self.v = torch.zeros(window, heads, dh)
        self.filled = 0

    def append(self, k, v):
        self.k[:-1] = self.k[1:]  # expect: TEN403
        self.v[:-1] = self.v[1:].clone()  # ok
        self.k[-1], self.v[-1] = k, v  # ok
        self.filled = min(self.filled + 1, self.k.shape[0])
        return self.k[-self.filled:], self.v[-self.filled:]


class BatchMajorCache:
    """k, v of shape (batch, heads, window, head_dim)."""

    def __init__(self, batch, window, heads, dh):
        self.k = torch.zeros(batch, heads, window, dh)
        self.v = torch.zeros(batch, heads, window, dh)
        self.filled = 0

    def append(self, k, v):
        self.k[:, :, :-1] = self.k[:, :, 1:]  # either: TEN403
        self.v = torch.cat([self.v[:, :, 1:], v[:, :, None]], dim=2)  # ok
        self.k[:, :, -1] = k
        self.filled = min(self.filled + 1, self.k.shape[2])
        return self.k[:, :, -self.filled:], self.v[:, :, -self.filled:]


@torch.no_grad()
def decode(attn, emb, head, cache, steps, tok):
    out = []
    for _ in range(steps):
        x = emb(tok)
        q, k, v = attn.qkv(x).chunk(3, dim=-1)
        ks, vs = cache.append(attn.split(k), attn.split(v))
        scores = torch.einsum("hd,thd->ht", attn.split(q), ks) / attn.dh ** 0.5
        ctx = torch.einsum("ht,thd->hd", F.softmax(scores, -1), vs).reshape(-1)
        tok = head(attn.out(ctx)).argmax()
        out.append(int(tok))
    return out


d, heads, vocab = 16, 4, 11
attn, emb, head = TinyAttn(d, heads), nn.Embedding(vocab, d), nn.Linear(d, vocab)
try:
    print("time-major decode:", decode(attn, emb, head, TimeMajorCache(4, heads, d // heads), 10, torch.tensor(3)))
except RuntimeError as err:
    print("time-major decode failed:", str(err).split(".")[0])

bm = BatchMajorCache(2, 3, heads, 2)
for t in range(5):
    ks, vs = bm.append(torch.full((2, heads, 2), float(t)), torch.full((2, heads, 2), float(t)))
print("batch-major k slots:", ks[0, 0, :, 0].tolist(), "v slots:", vs[0, 0, :, 0].tolist())
