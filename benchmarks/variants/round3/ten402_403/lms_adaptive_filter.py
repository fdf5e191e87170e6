"""Normalized LMS adaptive filter for acoustic echo cancellation, in torch (runs on GPU for many channels)."""
import torch


class NLMSFilter:
    def __init__(self, n_taps=256, mu=0.5, eps=1e-6, device="cpu", dtype=torch.float32):
        self.n_taps = n_taps
        self.mu = mu
        self.eps = eps
        self.w = torch.zeros(n_taps, device=device, dtype=dtype)
        self.x_buf = torch.zeros(n_taps, device=device, dtype=dtype)  # newest sample at index 0

    def reset(self):
        self.w.zero_()
        self.x_buf.zero_()

    def step(self, x_n, d_n):
        """x_n: far-end reference sample, d_n: microphone sample. Returns error (echo-cancelled) sample."""
        self.x_buf[1:] = self.x_buf[:-1]  # expect: TEN403
        self.x_buf[0] = x_n
        y_n = torch.dot(self.w, self.x_buf)
        e_n = d_n - y_n
        norm = torch.dot(self.x_buf, self.x_buf) + self.eps
        self.w += (self.mu * e_n / norm) * self.x_buf
        return e_n

    def process(self, far, mic):
        out = torch.empty_like(mic)
        for n in range(mic.numel()):
            out[n] = self.step(far[n], mic[n])
        return out


def erle_db(mic, err, eps=1e-12):
    """Echo return loss enhancement in dB."""
    return 10 * torch.log10((mic.pow(2).mean() + eps) / (err.pow(2).mean() + eps))


def simulate(n=16000, room_len=200, snr_db=30.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    far = torch.randn(n, generator=g)
    h = torch.randn(room_len, generator=g) * torch.exp(-torch.arange(room_len) / 40.0)
    echo = torch.nn.functional.conv1d(
        torch.nn.functional.pad(far, (room_len - 1, 0))[None, None], h.flip(0)[None, None]
    )[0, 0]
    noise = torch.randn(n, generator=g) * echo.std() * 10 ** (-snr_db / 20)
    return far, echo + noise


if __name__ == "__main__":
    far, mic = simulate()
    filt = NLMSFilter(n_taps=256, mu=0.3)
    err = filt.process(far, mic)
    half = len(mic) // 2
    print(f"ERLE (second half): {erle_db(mic[half:], err[half:]).item():.1f} dB")
