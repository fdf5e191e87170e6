"""Context buffers for a streaming model, built on the helpers in ops.py."""
import torch

from . import ops


class LookbackBuffer:
    """Newest sample first."""

    def __init__(self, ch, size, safe):
        self.data = torch.zeros(2, ch, size)
        self.safe = safe

    def push(self, x):
        k = x.shape[-1]
        if self.safe:
            self.data = ops.shift_right(self.data, k)
        else:
            ops.shift_right_(self.data, k)
        self.data[..., :k] = x.flip(-1)
        return self.data


class LookaheadBuffer:
    """Oldest sample first."""

    def __init__(self, ch, size, mode):
        self.data = torch.zeros(2, ch, size)
        self.mode = mode

    def push(self, x):
        k = x.shape[-1]
        if self.mode == "inplace":
            ops.shift_left_(self.data, k)
            self.data[..., -k:] = x
        elif self.mode == "safe":
            ops.shift_left_safe_(self.data, k)
            self.data[..., -k:] = x
        else:
            ops.push_back_(self.data, x)
        return self.data
