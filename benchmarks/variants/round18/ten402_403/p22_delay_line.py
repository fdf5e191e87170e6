"""Multi-channel FIR filtering and a feedback comb filter with tapped delay lines."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class FIRFilter:
    """Processes one sample per channel at a time, like a real-time audio callback."""

    def __init__(self, taps, channels):
        self.taps = taps                                  # (T,)
        self.buf = torch.zeros(channels, taps.numel())    # newest sample in column 0

    def process(self, frame):                             # frame: (channels,)
        self.buf[:, 1:] = self.buf[:, :-1]  # expect: TEN403
        self.buf[:, 0] = frame  # ok
        return self.buf @ self.taps


class FIRFilterRoll(FIRFilter):
    def process(self, frame):
        self.buf = torch.roll(self.buf, shifts=1, dims=1)  # ok
        self.buf[:, 0] = frame
        return self.buf @ self.taps


class FIRFilterNumpy:
    def __init__(self, taps, channels):
        self.taps = taps.numpy()
        self.buf = np.zeros((channels, self.taps.size), dtype=np.float32)

    def process(self, frame):
        self.buf[:, 1:] = self.buf[:, :-1]  # ok
        self.buf[:, 0] = frame.numpy()
        return torch.from_numpy(self.buf @ self.taps)


class CombFilter:
    """y[n] = x[n] + g * y[n - D], delay line stored newest-last."""

    def __init__(self, delay, channels, gain=0.5):
        self.gain = gain
        self.line = torch.zeros(channels, delay)

    def process(self, frame):
        out = frame + self.gain * self.line[:, 0]
        self.line[:, :-1].copy_(self.line[:, 1:])  # expect: TEN403
        self.line[:, -1] = out
        return out


class CombFilterClone(CombFilter):
    def process(self, frame):
        out = frame + self.gain * self.line[:, 0]
        self.line[:, :-1].copy_(self.line[:, 1:].clone())  # ok
        self.line[:, -1] = out
        return out


def run(filter_cls, signal, *args):
    f = filter_cls(*args)
    return torch.stack([f.process(signal[:, t]) for t in range(signal.shape[1])], 1)


if __name__ == "__main__":
    sig = torch.randn(3, 64)
    taps = torch.hann_window(24)
    a = run(FIRFilter, sig, taps, 3)
    b = run(FIRFilterRoll, sig, taps, 3)
    c = run(FIRFilterNumpy, sig, taps, 3)
    print("FIR in-place vs roll  max err", (a - b).abs().max().item())
    print("FIR numpy vs roll     max err", (c - b).abs().max().item())
    d = run(CombFilter, sig, 20, 3)
    e = run(CombFilterClone, sig, 20, 3)
    print("comb in-place vs clone max err", (d - e).abs().max().item())
