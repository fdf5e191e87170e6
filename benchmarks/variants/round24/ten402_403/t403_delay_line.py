"""Fractional delay line / FIR history buffer for a streaming audio effect."""
import torch

torch.manual_seed(0)


class DelayLine:
    def __init__(self, length):
        self.buf = torch.zeros(length)

    def push(self, sample):
        self.buf[1:] = self.buf[:-1]  # expect: TEN403
        self.buf[0] = sample
        return self.buf


class RolledDelayLine(DelayLine):
    def push(self, sample):
        self.buf = torch.roll(self.buf, 1)  # ok
        self.buf[0] = sample
        return self.buf


class ClonedDelayLine(DelayLine):
    def push(self, sample):
        self.buf[1:] = self.buf[:-1].clone()  # ok
        self.buf[:1] = sample  # ok
        return self.buf


def fir(line_cls, signal, taps):
    line = line_cls(len(taps))
    out = []
    for s in signal:
        out.append(float(line.push(float(s)) @ taps))
    return torch.tensor(out)


if __name__ == "__main__":
    sig = torch.randn(32)
    taps = torch.tensor([0.5, 0.3, 0.15, 0.05])
    for cls in (DelayLine, RolledDelayLine, ClonedDelayLine):
        try:
            y = fir(cls, sig, taps)
            print(cls.__name__, f"{y.sum().item():.6f} {y.abs().max().item():.6f}")
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:60])
