"""Sample-by-sample comb filter and FIR filter bank with explicit delay lines."""
import math

import torch


class FeedbackComb:
    """y[n] = x[n] + g * y[n - D], D-sample circular history kept as a shift register."""

    def __init__(self, delay, gain=0.7, channels=1):
        self.delay = delay
        self.gain = gain
        self.buf = torch.zeros(delay, channels)

    def tick(self, x):
        y = x + self.gain * self.buf[-1]
        self.buf[1:] = self.buf[:-1]  # expect: TEN403
        self.buf[0] = y
        return y

    def process(self, signal):
        out = torch.empty_like(signal)
        for n in range(signal.shape[0]):
            out[n] = self.tick(signal[n])
        return out


class FIRBank:
    """Several FIR filters applied to several channels, streaming one sample at a time."""

    def __init__(self, coeffs, channels):
        # coeffs: (filters, taps)
        self.coeffs = coeffs
        n_filters, n_taps = coeffs.shape
        self.taps = torch.zeros(channels, n_filters, n_taps)

    def tick(self, sample):
        # sample: (channels,)
        self.taps[..., 1:] = self.taps[..., :-1]  # expect: TEN403
        self.taps[..., 0] = sample.unsqueeze(-1)
        return (self.taps * self.coeffs).sum(-1)


def lowpass_taps(n, cutoff):
    m = torch.arange(n, dtype=torch.float32) - (n - 1) / 2
    h = torch.where(m == 0, torch.tensor(2 * cutoff), torch.sin(2 * math.pi * cutoff * m) / (math.pi * m))
    window = torch.hann_window(n, periodic=False)
    h = h * window
    return h / h.sum()


if __name__ == "__main__":
    sr = 8000
    t = torch.arange(400) / sr
    sig = torch.sin(2 * math.pi * 440 * t).unsqueeze(-1)
    comb = FeedbackComb(delay=25, gain=0.5)
    print(comb.process(sig[:50]).abs().max())
    bank = FIRBank(torch.stack([lowpass_taps(15, 0.1), lowpass_taps(15, 0.3)]), channels=2)
    for n in range(20):
        bank.tick(torch.stack([sig[n, 0], -sig[n, 0]]))
