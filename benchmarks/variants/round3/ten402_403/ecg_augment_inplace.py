"""In-place GPU augmentations for ECG batches (applied inside the training step to avoid extra copies)."""
import random

import torch


def circular_time_shift_(x, max_frac=0.1):
    """Rotate each batch right by a random number of samples, in place. x: (B, C, L)."""
    L = x.size(-1)
    max_shift = max(1, int(max_frac * L))
    s = random.randint(1, max_shift)
    tail = x[..., -s:].clone()
    x[..., s:] = x[..., :-s]  # expect: TEN403
    x[..., :s] = tail
    return x


def baseline_wander_(x, fs=500, max_amp=0.1):
    B, C, L = x.shape
    t = torch.arange(L, device=x.device) / fs
    freq = torch.empty(B, 1, 1, device=x.device).uniform_(0.05, 0.5)
    phase = torch.empty(B, 1, 1, device=x.device).uniform_(0, 6.283)
    amp = torch.empty(B, C, 1, device=x.device).uniform_(0, max_amp)
    x.add_(amp * torch.sin(6.283 * freq * t + phase))
    return x


class ARNoise:
    """Adds autoregressive (colored) noise: n[t] = sum_i a_i n[t-i] + w[t]; keeps the last `order` values."""

    def __init__(self, coeffs, batch_shape, device="cpu"):
        self.a = torch.as_tensor(coeffs, dtype=torch.float32, device=device)  # a_1..a_p
        self.order = self.a.numel()
        self.taps = torch.zeros(*batch_shape, self.order, device=device)  # taps[..., 0] is n[t-1]

    def sample(self, length, sigma=0.01):
        out = torch.empty(*self.taps.shape[:-1], length, device=self.taps.device)
        for t in range(length):
            n_t = (self.taps * self.a).sum(-1) + sigma * torch.randn_like(self.taps[..., 0])
            older = self.taps[..., :-1]
            self.taps[..., 1:] = older  # expect: TEN403
            self.taps[..., 0] = n_t
            out[..., t] = n_t
        return out


def augment_batch(x, ar_noise=None, p=0.5):
    if random.random() < p:
        circular_time_shift_(x)
    if random.random() < p:
        baseline_wander_(x)
    if ar_noise is not None and random.random() < p:
        x.add_(ar_noise.sample(x.size(-1)))
    return x


if __name__ == "__main__":
    batch = torch.randn(16, 12, 5000)
    noise = ARNoise([0.6, -0.2, 0.1, 0.05, -0.05, 0.02, 0.01, -0.01], batch_shape=(16, 12))
    out = augment_batch(batch, noise, p=1.0)
    print(out.shape, out.std().item())
