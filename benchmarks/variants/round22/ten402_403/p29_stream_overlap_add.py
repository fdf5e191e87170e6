"""Streaming STFT-style overlap-add with hop-sized buffer shifts."""
import math

import torch

torch.manual_seed(0)


class OverlapAdd:
    """Mono overlap-add accumulator of length win; emits hop samples per frame."""

    def __init__(self, win, hop):
        self.win, self.hop = win, hop
        self.acc = torch.zeros(win)
        self.window = torch.hann_window(win, periodic=True)

    def push(self, frame):
        self.acc += frame * self.window
        out = self.acc[:self.hop].clone()  # ok
        self.acc[:-self.hop] = self.acc[self.hop:]  # expect: TEN403
        self.acc[-self.hop:] = 0
        return out


class InputFramer:
    """Multi-channel input buffer (channels, win); slides by hop."""

    def __init__(self, channels, win, hop):
        self.hop = hop
        self.buf = torch.zeros(channels, win)

    def push(self, block):
        self.buf[:, :-self.hop] = self.buf[:, self.hop:]  # either: TEN403
        self.buf[:, -self.hop:] = block  # ok
        return self.buf


class HopHistory:
    """(channels, n_hops * hop) history of past blocks, newest block first."""

    def __init__(self, channels, n_hops, hop):
        self.hop = hop
        self.hist = torch.zeros(channels, n_hops * hop)

    def push(self, block):
        self.hist[:, self.hop:] = self.hist[:, :-self.hop]  # expect: TEN403
        self.hist[:, :self.hop] = block
        return self.hist


class OverlapAddCat(OverlapAdd):
    def push(self, frame):
        self.acc = self.acc + frame * self.window
        out = self.acc[:self.hop]
        self.acc = torch.cat([self.acc[self.hop:], torch.zeros(self.hop)])  # ok
        return out


sig = torch.tensor([math.sin(0.3 * i) for i in range(32)])
for cls in (OverlapAddCat, OverlapAdd):
    ola = cls(8, 2)
    try:
        outs = [ola.push(sig[i:i + 8]) for i in range(0, 20, 2)]
        print(f"{cls.__name__:<14}", [round(v, 4) for v in torch.cat(outs).tolist()])
    except RuntimeError as err:
        print(f"{cls.__name__:<14} failed:", str(err).split(".")[0])

framer = InputFramer(2, 6, 2)
hh = HopHistory(2, 3, 2)
for b in range(4):
    block = torch.tensor([[b * 2.0, b * 2.0 + 1], [-b * 2.0, -b * 2.0 - 1]])
    fb = framer.push(block)
    hb = hh.push(block)
print("framer ch0 :", fb[0].tolist())
print("history ch0:", hb[0].tolist())
