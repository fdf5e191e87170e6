"""Sample-by-sample FIR filtering and a feedback comb, for a streaming audio node."""
import math

import torch

N_TAPS = 64


def lowpass_taps(cutoff: float, sr: int, n: int = N_TAPS) -> torch.Tensor:
    t = torch.arange(n) - (n - 1) / 2
    h = torch.sinc(2 * cutoff / sr * t) * torch.hann_window(n, periodic=False)
    return h / h.sum()


class StreamingFIR:
    def __init__(self, taps: torch.Tensor):
        assert taps.numel() == N_TAPS
        self.taps = taps
        self.state = torch.zeros(N_TAPS)

    def process_sample(self, x: float) -> float:
        self.state[1:].copy_(self.state[:-1])  # expect: TEN403
        self.state[0] = x
        return float(torch.dot(self.state, self.taps))

    def process_block(self, block: torch.Tensor) -> torch.Tensor:
        return torch.tensor([self.process_sample(float(s)) for s in block])


class StreamingFIRRoll(StreamingFIR):
    def process_sample(self, x: float) -> float:
        self.state = torch.roll(self.state, 1)  # ok
        self.state[0] = x
        return float(torch.dot(self.state, self.taps))


class StreamingFIRClone(StreamingFIR):
    def process_sample(self, x: float) -> float:
        self.state[1:] = self.state[:-1].clone()  # ok
        self.state[0] = x
        return float(torch.dot(self.state, self.taps))


class FeedbackComb:
    """y[n] = x[n] + g * y[n - D], kept in a circular buffer with a write index."""

    def __init__(self, delay_ms: float, sr: int = 48000, gain: float = 0.7):
        self.d = max(1, int(round(delay_ms * sr / 1000)))
        self.buf = torch.zeros(self.d)
        self.idx = 0
        self.g = gain

    def process_block(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        for n in range(x.numel()):
            out = x[n] + self.g * self.buf[self.idx]
            self.buf[self.idx] = out
            self.idx = (self.idx + 1) % self.d
            y[n] = out
        return y


def block_fir(x: torch.Tensor, taps: torch.Tensor, history: torch.Tensor):
    """Vectorised block version; returns (y, new_history)."""
    full = torch.cat([history, x])  # ok
    y = torch.nn.functional.conv1d(full.view(1, 1, -1), taps.flip(0).view(1, 1, -1)).view(-1)
    return y[-x.numel():], full[-(taps.numel() - 1):].clone()


if __name__ == "__main__":
    sr = 48000
    fir = StreamingFIR(lowpass_taps(4000, sr))
    sig = torch.sin(2 * math.pi * 440 * torch.arange(480) / sr)
    print(fir.process_block(sig)[:10])
