import torch

from .buffers import RingBuffer, make_buffer


class OverlapAddStreamer:
    """STFT-style streaming: keep `win` samples, advance by `hop` each chunk."""

    def __init__(self, channels=2, win=64, hop=16):
        self.win, self.hop = win, hop
        self.buf = make_buffer(channels, win)
        self.out_acc = torch.zeros(channels, win)

    def push(self, chunk):
        self.buf[:, :-self.hop] = self.buf[:, self.hop:]  # expect: TEN403
        self.buf[:, -self.hop:] = chunk
        return self.buf

    def overlap_add(self, frame):
        self.out_acc += frame
        out = self.out_acc[:, :self.hop].clone()
        self.out_acc[:, :-self.hop] = self.out_acc[:, self.hop:]  # expect: TEN403
        self.out_acc[:, -self.hop:] = 0
        return out


class LookbackDelay:
    """Delay line for echo: newest samples at the end."""

    def __init__(self, channels=1, max_delay=128):
        self.line = make_buffer(channels, max_delay)

    def delay_by(self, d: int):
        self.line[:, d:] = self.line[:, :-d]  # expect: TEN403
        self.line[:, :d] = 0


class FrameHistory:
    def __init__(self, n_frames=4, dim=8):
        self.hist: torch.Tensor = torch.zeros(n_frames, dim)
        self.ring = RingBuffer(dim, n_frames)

    def push(self, feat):
        self.hist[1:] = self.hist[:-1]  # expect: TEN403
        self.hist[0] = feat
        self.ring.push(feat)

    def push_fixed(self, feat):
        self.hist = torch.cat([feat[None], self.hist[:-1]])  # ok
