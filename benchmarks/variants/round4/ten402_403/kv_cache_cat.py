"""StreamingLLM-style cache: keep a few 'sink' tokens plus a recent window, rebuilt with cat."""
import math

import torch
import torch.nn.functional as F


class SinkCache:
    def __init__(self, n_sink=2, window=6):
        self.n_sink = n_sink
        self.window = window
        self.k = None  # (B, H, T, D)
        self.v = None

    def __len__(self):
        return 0 if self.k is None else self.k.shape[2]

    def update(self, k_new, v_new):
        if self.k is None:
            self.k, self.v = k_new, v_new
        else:
            self.k = torch.cat([self.k, k_new], dim=2)  # ok
            self.v = torch.cat([self.v, v_new], dim=2)  # ok
        limit = self.n_sink + self.window
        if self.k.shape[2] > limit:
            s = self.n_sink
            self.k = torch.cat([self.k[:, :, :s], self.k[:, :, -self.window:]], dim=2)  # ok
            self.v = torch.cat([self.v[:, :, :s], self.v[:, :, -self.window:]], dim=2)  # ok
        return self.k, self.v


def rotate_half(x):
    half = x.shape[-1] // 2
    out = torch.empty_like(x)
    out[..., :half] = -x[..., half:]  # ok: different tensors
    out[..., half:] = x[..., :half]  # ok
    return out


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    inv = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    ang = positions[:, None].float() * inv[None]
    cos = torch.cat([ang.cos(), ang.cos()], -1)
    sin = torch.cat([ang.sin(), ang.sin()], -1)
    return x * cos + rotate_half(x) * sin


@torch.no_grad()
def generate_scores(q_stream, k_stream, v_stream, cache):
    """Run attention token by token; positions are re-assigned inside the cache."""
    outs = []
    for t in range(q_stream.shape[2]):
        k, v = cache.update(k_stream[:, :, t:t + 1], v_stream[:, :, t:t + 1])
        pos = torch.arange(len(cache))
        q = apply_rope(q_stream[:, :, t:t + 1], pos[-1:])
        kr = apply_rope(k, pos)
        att = F.softmax(q @ kr.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
        outs.append(att @ v)
    return torch.cat(outs, dim=2)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, H, T, D = 1, 2, 12, 8
    q, k, v = (torch.randn(B, H, T, D) for _ in range(3))
    print(generate_scores(q, k, v, SinkCache()).shape)
