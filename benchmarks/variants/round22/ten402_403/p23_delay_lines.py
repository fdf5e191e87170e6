"""Sample-by-sample audio processing with explicit delay lines."""
import math

import torch

torch.manual_seed(0)


class FIRDelayLine:
    """Mono FIR filter: line[0] is the newest sample."""

    def __init__(self, taps):
        self.taps = taps
        self.line = torch.zeros(len(taps))

    def process(self, sample):
        self.line[1:] = self.line[:-1]  # expect: TEN403
        self.line[0] = sample
        return float(self.line @ self.taps)


class MultiChannelFIR:
    """(channels, taps) delay line, newest sample in column 0."""

    def __init__(self, taps, channels):
        self.taps = taps
        self.z = torch.zeros(channels, len(taps))

    def process(self, frame):
        self.z[:, 1:] = self.z[:, :-1].clone()  # ok
        self.z[:, 0] = frame
        return self.z @ self.taps


class FeedbackComb:
    """y[n] = x[n] + g * y[n - D] per channel, with a (channels, D + 1) history."""

    def __init__(self, channels, delay, gain):
        self.n = delay + 1
        self.gain = gain
        self.hist = torch.zeros(channels, self.n)

    def process(self, frame):
        n = self.n
        self.hist.narrow(1, 1, n - 1).copy_(self.hist.narrow(1, 0, n - 1))  # expect: TEN403
        y = frame + self.gain * self.hist[:, -1]
        self.hist[:, 0] = y
        return y


taps = torch.tensor([0.5, 0.3, 0.15, 0.05])
signal = torch.tensor([math.sin(0.7 * i) for i in range(12)])

fir = FIRDelayLine(taps)
try:
    print("mono FIR:", [round(fir.process(s), 4) for s in signal.tolist()])
except RuntimeError as err:
    print("mono FIR failed:", str(err).split(".")[0])

mc = MultiChannelFIR(taps, channels=2)
stereo = torch.stack([signal, -signal], 1)
print("stereo FIR ch0:", [round(mc.process(fr)[0].item(), 4) for fr in stereo])

comb = FeedbackComb(channels=2, delay=3, gain=0.5)
impulse = torch.zeros(12, 2)
impulse[0] = 1.0
print("comb impulse response ch1:", [round(comb.process(fr)[1].item(), 4) for fr in impulse])
