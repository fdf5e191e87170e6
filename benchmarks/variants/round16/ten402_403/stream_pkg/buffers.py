"""Buffers for a block-streaming feature extractor (channels x samples)."""
import torch


class ShiftingFrameBuffer:
    """Holds the last `size` samples; new hop-sized blocks enter at the end."""

    def __init__(self, channels, size, hop):
        self.hop = hop
        self.data = torch.zeros(channels, size)

    def push(self, block):
        hop = self.hop
        self.data[:, :-hop] = self.data[:, hop:]  # expect: TEN403
        self.data[:, -hop:] = block  # ok
        return self.data


class ReversedFrameBuffer:
    """Newest samples first (what the legacy DSP code expects)."""

    def __init__(self, channels, size, hop):
        self.hop = hop
        self.data = torch.zeros(channels, size)

    def push(self, block):
        hop = self.hop
        self.data[:, hop:] = self.data[:, :-hop]  # expect: TEN403
        self.data[:, :hop] = block.flip(-1)  # ok
        return self.data.flip(-1)


class RollingFrameBuffer:
    def __init__(self, channels, size, hop):
        self.hop = hop
        self.data = torch.zeros(channels, size)

    def push(self, block):
        self.data = torch.cat([self.data[:, self.hop:], block], dim=1)  # ok
        return self.data
