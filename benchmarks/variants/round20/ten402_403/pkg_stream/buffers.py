"""Rolling buffers for multichannel streams."""
import torch


class HopShifter:
    """Newest samples live at the front of a (channels, size) buffer."""

    def __init__(self, channels, size, hop, safe=False):
        self.hop = hop
        self.safe = safe
        self.buf = torch.zeros(channels, size)

    def advance(self, chunk):
        if self.safe:
            self.buf[:, self.hop:] = self.buf[:, :-self.hop].clone()  # ok
        else:
            self.buf[:, self.hop:] = self.buf[:, :-self.hop]  # expect: TEN403
        self.buf[:, :self.hop] = chunk.flip(-1)
        return self.buf


def lag_stack(x, k, safe=False):
    """x: (batch, time, feat). Return x delayed by k along time."""
    out = x.clone()
    if safe:
        out[:, k:].copy_(x[:, :-k])  # ok
    else:
        out[:, k:].copy_(out[:, :-k])  # expect: TEN403
    out[:, :k] = 0
    return out
