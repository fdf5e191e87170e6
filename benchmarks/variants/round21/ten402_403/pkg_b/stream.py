import torch

from . import ops


class DelayBank:
    """Multichannel tapped delay line; newest samples at column 0."""

    def __init__(self, channels, length, hop, safe):
        self.buf = torch.zeros(channels, length)
        self.hop = hop
        self.safe = safe

    def push(self, block):
        """block: (channels, hop), newest sample first."""
        if self.safe:
            ops.shift_right_safe(self.buf, self.hop)
        else:
            ops.shift_right(self.buf, self.hop)
        self.buf[:, : self.hop] = block
        return self.buf


class Window:
    def __init__(self, channels, length):
        self.buf = torch.zeros(channels, length)

    def push(self, block):
        self.buf = ops.append_newest(self.buf, block)
        return self.buf
