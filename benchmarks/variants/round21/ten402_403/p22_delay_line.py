"""Sample-by-sample audio effects: a feedback comb filter built on a delay line (mono, 1-D)
and a multichannel FIR shift register, with a NumPy reference implementation."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class CombFilter:
    """y[n] = x[n] + g * y[n - D]; line[0] is the newest output sample."""

    def __init__(self, delay, gain=0.5):
        self.line = torch.zeros(delay)
        self.gain = gain

    def tick(self, x):
        y = x + self.gain * self.line[-1]
        self.line[1:] = self.line[:-1]  # expect: TEN403
        self.line[0] = y
        return y


class CombFilterSafe(CombFilter):
    def tick(self, x):
        y = x + self.gain * self.line[-1]
        self.line[1:] = self.line[:-1].clone()  # ok
        self.line[0] = y
        return y


class MultiChannelFIR:
    """taps: (channels, order) shift register per channel, newest sample in column 0."""

    def __init__(self, coeffs, channels, safe=False):
        self.coeffs = coeffs
        self.taps = torch.zeros(channels, len(coeffs))
        self.safe = safe

    def tick(self, frame):
        if self.safe:
            new_taps = torch.empty_like(self.taps)
            new_taps[:, 1:] = self.taps[:, :-1]  # ok
            self.taps = new_taps
        else:
            self.taps[:, 1:] = self.taps[:, :-1]  # expect: TEN403
        self.taps[:, 0] = frame
        return self.taps @ self.coeffs


def numpy_comb(xs, delay, gain=0.5):
    line = np.zeros(delay)
    out = []
    for x in xs:
        y = x + gain * line[-1]
        line[1:] = line[:-1]  # ok
        line[0] = y
        out.append(y)
    return np.array(out)


def run_comb(cls, xs):
    f = cls(delay=3)
    try:
        return torch.stack([f.tick(x) for x in xs])
    except RuntimeError as e:
        return "RuntimeError: " + str(e).split(".")[0]


if __name__ == "__main__":
    impulse = torch.zeros(10)
    impulse[0] = 1.0
    print("CombFilter     :", run_comb(CombFilter, impulse))
    print("CombFilterSafe :", run_comb(CombFilterSafe, impulse).tolist())
    print("numpy reference:", numpy_comb(impulse.numpy(), 3).tolist())
    coeffs = torch.tensor([0.5, 0.25, 0.125, 0.0625])
    sig = torch.stack([torch.arange(8.0), -torch.arange(8.0)], dim=1)
    for safe in (False, True):
        fir = MultiChannelFIR(coeffs, channels=2, safe=safe)
        out = torch.stack([fir.tick(sig[t]) for t in range(8)])
        print(f"FIR safe={safe}: ch0 = {out[:, 0].tolist()}")
