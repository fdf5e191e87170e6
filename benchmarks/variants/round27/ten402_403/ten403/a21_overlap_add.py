"""Overlap-add resynthesis with a hand-written accumulator."""
import torch

torch.manual_seed(0)

C, FRAME, HOP = 2, 8, 2
win = torch.hann_window(FRAME, periodic=True)


class OLA:
    def __init__(self):
        self.acc = torch.zeros(C, FRAME)

    def process(self, frame):
        self.acc += frame * win
        out = self.acc[:, :HOP].clone()
        self.acc[:, :-HOP] = self.acc[:, HOP:]  # expect: TEN403
        self.acc[:, -HOP:] = torch.zeros(C, HOP)  # ok
        return out


class TimeMajorOLA(OLA):
    """Accumulator stored (FRAME, C) and scrolled towards the end (newest last)."""

    def __init__(self):
        self.workspace = torch.zeros(FRAME, C + 1)  # last column: scratch for a gain track
        self.acc_t = self.workspace[:, :C]
        self.acc = self.acc_t.t()

    def process(self, frame):
        self.acc += frame.flip(-1) * win.flip(0)
        out = self.acc[:, -HOP:].flip(-1).clone()
        self.acc_t.t()[:, HOP:] = self.acc_t.t()[:, :-HOP]  # expect: TEN403
        self.acc[:, :HOP] = torch.zeros(C, HOP)  # ok
        return out


sig = torch.randn(C, 40)
for cls in (OLA, TimeMajorOLA):
    ola = cls()
    outs = [ola.process(sig[:, i:i + FRAME]) for i in range(0, 40 - FRAME + 1, HOP)]
    y = torch.cat(outs, 1)
    print(cls.__name__, "output checksum %.5f" % y.sum().item(), "first", [round(v, 4) for v in y[0, :6].tolist()])
