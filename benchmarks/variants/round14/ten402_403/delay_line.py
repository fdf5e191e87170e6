"""Sample-by-sample FIR filtering with explicit delay lines (DSP-style)."""
import torch


class FIR:
    def __init__(self, taps):
        self.h = taps
        self.line = torch.zeros(len(taps))

    def tick(self, x):
        self.line[1:].copy_(self.line[:-1])  # expect: TEN403
        self.line[0] = x
        return torch.dot(self.h, self.line)


class FIRCat(FIR):
    def tick(self, x):
        self.line = torch.cat([x.reshape(1), self.line[:-1]])  # ok
        return torch.dot(self.h, self.line)


class FIRClone(FIR):
    def tick(self, x):
        self.line[1:].copy_(self.line[:-1].clone())  # ok
        self.line[0] = x  # ok
        return torch.dot(self.h, self.line)


class MultiChannelFIR:
    """One delay line per channel, stored as (channels, taps)."""

    def __init__(self, taps, channels):
        self.h = taps
        self.lines = torch.zeros(channels, len(taps))

    def tick(self, x):
        self.lines[:, 1:] = self.lines[:, :-1]  # expect: TEN403
        self.lines[:, 0] = x  # ok
        return self.lines @ self.h


class MultiChannelFIRRoll(MultiChannelFIR):
    def tick(self, x):
        self.lines = self.lines.roll(1, dims=1)  # ok
        self.lines[:, 0] = x  # ok
        return self.lines @ self.h


def reference(h, xs):
    out = torch.zeros_like(xs)
    for n in range(len(xs)):
        for k in range(len(h)):
            if n - k >= 0:
                out[n] += h[k] * xs[n - k]  # ok
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    h = torch.tensor([0.5, 0.3, 0.15, 0.05])
    xs = torch.randn(12)
    ref = reference(h, xs)
    for cls in (FIR, FIRCat, FIRClone):
        f = cls(h)
        try:
            ys = torch.stack([f.tick(x) for x in xs])
            print(cls.__name__, "max err", (ys - ref).abs().max().item())
        except RuntimeError as err:
            print(cls.__name__, "error:", str(err)[:50])
    stereo = torch.stack([xs, 2 * xs], dim=1)
    for cls in (MultiChannelFIR, MultiChannelFIRRoll):
        f = cls(h, channels=2)
        ys = torch.stack([f.tick(frame) for frame in stereo])
        print(cls.__name__, "max err ch0", (ys[:, 0] - ref).abs().max().item())
