"""Block-based streaming audio effects: a feedback comb filter and a one-pole smoother."""
import numpy as np
import torch


class StreamingComb:
    """y[n] = x[n] + g * y[n - D], processed block by block with a sliding history."""

    def __init__(self, channels: int, delay: int = 1024, gain: float = 0.6, block: int = 256):
        assert delay >= 4 * block, "history must span several blocks"
        self.delay = delay
        self.gain = gain
        self.block = block
        self.history = torch.zeros(channels, delay)

    def process(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[-1]
        assert n == self.block
        y = x + self.gain * self.history[:, :n]
        # drop the oldest n samples and append the new output at the end
        self.history[:, :-n] = self.history[:, n:]  # expect: TEN403
        self.history[:, -n:] = y
        return y


class TapDelay:
    """Keeps the last `taps` input samples for an FIR filter, newest first."""

    def __init__(self, taps: int):
        self.line = torch.zeros(taps)

    def push(self, sample: float) -> torch.Tensor:
        self.line[1:].copy_(self.line[:-1])  # expect: TEN403
        self.line[0] = sample
        return self.line


class TapDelayFixed:
    def __init__(self, taps: int):
        self.line = torch.zeros(taps)

    def push(self, sample: float) -> torch.Tensor:
        self.line[1:] = self.line[:-1].clone()  # ok
        self.line[0] = sample
        return self.line


class TapDelayNumpy:
    def __init__(self, taps: int):
        self.line = np.zeros(taps, dtype=np.float32)

    def push(self, sample: float) -> np.ndarray:
        self.line[1:] = self.line[:-1]  # ok
        self.line[0] = sample
        return self.line


def fir(samples, coeffs):
    delay = TapDelayFixed(len(coeffs))
    out = []
    for s in samples:
        out.append(torch.dot(delay.push(float(s)), coeffs).item())
    return torch.tensor(out)


if __name__ == "__main__":
    comb = StreamingComb(channels=2, delay=1024, block=256)
    audio = torch.randn(2, 256 * 16)
    wet = torch.cat([comb.process(b) for b in audio.split(256, dim=-1)], dim=-1)
    print(wet.shape, fir(torch.randn(64), torch.ones(8) / 8)[:4])
