"""Block-wise audio processing: streaming STFT frames, FIR filtering, overlap-add."""
import math

import torch


class StreamingSTFT:
    """Feed `hop` new samples at a time, get one windowed spectrum frame back."""

    def __init__(self, n_fft=16, hop=4):
        self.n_fft = n_fft
        self.hop = hop
        self.window = torch.hann_window(n_fft)
        self.buf = torch.zeros(n_fft)

    def push(self, chunk):
        hop = self.hop
        assert chunk.numel() == hop
        self.buf[:-hop] = self.buf[hop:]  # expect: TEN403
        self.buf[-hop:] = chunk  # ok
        return torch.fft.rfft(self.buf * self.window)


class MultiChannelFIR:
    """Direct-form FIR, one delay line per channel, delay layout (channels, taps)."""

    def __init__(self, taps, channels=2):
        self.h = taps.flip(0)
        self.z = torch.zeros(channels, taps.numel())

    def process(self, block):
        out = torch.empty_like(block)
        for t in range(block.shape[1]):
            self.z[:, 1:] = self.z[:, :-1]  # expect: TEN403
            self.z[:, 0] = block[:, t]  # ok
            out[:, t] = self.z.flip(1) @ self.h
        return out


class RollingFIR:
    """Same filter, delay line advanced with torch.roll (allocates a new tensor)."""

    def __init__(self, taps, channels=2):
        self.h = taps.flip(0)
        self.z = torch.zeros(channels, taps.numel())

    def process(self, block):
        out = torch.empty_like(block)
        for t in range(block.shape[1]):
            self.z = torch.roll(self.z, shifts=1, dims=1)  # ok
            self.z[:, 0] = block[:, t]
            out[:, t] = self.z.flip(1) @ self.h
        return out


class OverlapAdd:
    def __init__(self, frame=16, hop=4):
        self.hop = hop
        self.acc = torch.zeros(frame)

    def push(self, frame):
        self.acc += frame
        ready = self.acc[: self.hop].clone()
        self.acc = torch.cat((self.acc[self.hop:], self.acc.new_zeros(self.hop)))  # ok
        return ready


def lowpass_taps(n=9, cutoff=0.25):
    k = torch.arange(n) - (n - 1) / 2
    h = torch.where(k == 0, torch.tensor(2 * cutoff), torch.sin(2 * math.pi * cutoff * k) / (math.pi * k))
    return h * torch.hamming_window(n, periodic=False)


def demo(seconds=0.01, sr=8000):
    t = torch.arange(int(seconds * sr)) / sr
    sig = torch.stack([torch.sin(2 * math.pi * 440 * t), torch.sin(2 * math.pi * 3000 * t)])
    taps = lowpass_taps()
    rolled = RollingFIR(taps).process(sig)
    shifted = MultiChannelFIR(taps).process(sig)
    ola = OverlapAdd()
    pieces = [ola.push(torch.ones(16)) for _ in range(6)]
    return rolled, shifted, torch.cat(pieces)


if __name__ == "__main__":
    rolled, shifted, ola = demo()
    print("FIR mismatch between implementations:", (rolled - shifted).abs().max().item())
    stft = StreamingSTFT()
    for i in range(4):
        spec = stft.push(torch.randn(4))
    print("frame bins", spec.shape)
