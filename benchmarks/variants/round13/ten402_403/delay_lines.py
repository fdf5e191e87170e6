"""Delay-line style buffers written without overlapping in-place copies."""
import torch


class CloneShiftBuffer:
    """Sliding analysis window; the overlapping source is cloned before the write."""

    def __init__(self, size=12, hop=3):
        self.hop = hop
        self.buf = torch.zeros(size)

    def push(self, chunk):
        hop = self.hop
        self.buf[:-hop] = self.buf[hop:].clone()  # ok
        self.buf[-hop:] = chunk  # ok
        return self.buf


class CatShiftBuffer:
    def __init__(self, size=12, hop=3):
        self.hop = hop
        self.buf = torch.zeros(size)

    def push(self, chunk):
        self.buf = torch.cat((self.buf[self.hop:], chunk))  # ok
        return self.buf


class CircularDelay:
    """Integer-sample delay implemented with a write pointer into a ring."""

    def __init__(self, delay, channels=1):
        self.ring = torch.zeros(channels, delay)
        self.pos = 0

    def process(self, block):
        out = torch.empty_like(block)
        d = self.ring.shape[1]
        for t in range(block.shape[1]):
            out[:, t] = self.ring[:, self.pos]  # ok
            self.ring[:, self.pos] = block[:, t]  # ok
            self.pos = (self.pos + 1) % d
        return out


class DoubleBufferFIR:
    """Two preallocated delay lines; each step writes the shifted state into the other."""

    def __init__(self, taps, channels=2):
        self.h = taps
        self.front = torch.zeros(channels, taps.numel())
        self.back = torch.zeros_like(self.front)

    def step(self, sample):
        self.back[:, 1:] = self.front[:, :-1]  # ok
        self.back[:, 0] = sample
        self.front, self.back = self.back, self.front
        return self.front @ self.h


def reference_delay(x, d):
    return torch.cat((x.new_zeros(x.shape[0], d), x[:, :-d]), dim=1)  # ok


if __name__ == "__main__":
    sig = torch.arange(1.0, 11.0).view(1, -1)
    print(torch.equal(CircularDelay(3).process(sig), reference_delay(sig, 3)))
    a, b = CloneShiftBuffer(), CatShiftBuffer()
    for i in range(5):
        chunk = torch.full((3,), float(i))
        same = torch.equal(a.push(chunk), b.push(chunk))
    print("buffers agree:", same)
    fir = DoubleBufferFIR(torch.tensor([0.5, 0.25, 0.25]))
    print([fir.step(torch.tensor([1.0, 2.0])).tolist() for _ in range(3)])
