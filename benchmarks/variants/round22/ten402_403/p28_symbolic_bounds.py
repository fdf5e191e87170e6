"""Streaming feature windows with computed slice bounds."""
import torch

torch.manual_seed(0)


class Window:
    def __init__(self, batch, size):
        self.buf = torch.zeros(batch, size)
        self.n = size

    def delay_one(self):
        n = self.n
        self.buf[:, 1:n] = self.buf[:, 0:n - 1]  # expect: TEN403
        self.buf[:, 0] = 0

    def advance(self, k):
        self.buf[:, :-k] = self.buf[:, k:]  # either: TEN403
        self.buf[:, -k:] = 0

    def tile_first_block(self, k):
        self.buf[:, k:2 * k] = self.buf[:, 0:k]  # ok


class SingleStream(Window):
    """One utterance at a time: the batch dim is 1, so the slices are contiguous."""

    def advance(self, k):
        self.buf[:, :-k] = self.buf[:, k:]  # expect: TEN403
        self.buf[:, -k:] = 0


def move_segment(x, lo, hi):
    x[..., lo + 1:hi + 1] = x[..., lo:hi]  # expect: TEN403
    return x


def move_segment_far(x, lo, hi):
    width = hi - lo
    x[..., hi:hi + width] = x[..., lo:hi]  # ok
    return x


def fill(win):
    win.buf.copy_(torch.arange(1.0, win.buf.numel() + 1).view_as(win.buf))
    return win


for label, op in (("delay 1    ", lambda w: w.delay_one()),
                  ("advance 3  ", lambda w: w.advance(3)), ("tile block ", lambda w: w.tile_first_block(3))):
    w = fill(Window(2, 8))
    op(w)
    print(label + ":", w.buf.tolist())
try:
    s = fill(SingleStream(1, 8))
    s.advance(3)
    print("single adv :", s.buf[0].tolist())
except RuntimeError as err:
    print("single advance failed:", str(err).split(".")[0])
print("segment    :", move_segment(torch.arange(10.0).view(2, 5), 0, 3).tolist())
print("segment far:", move_segment_far(torch.arange(12.0).view(2, 6), 0, 3).tolist())
