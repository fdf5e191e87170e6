import torch


class RollingKV:
    """Per-layer key cache of shape (batch, heads, window, dim)."""

    def __init__(self, b, h, window, d):
        self.keys = torch.zeros(b, h, window, d)
        self.filled = 0

    def _make_room(self):
        k = self.keys
        k.narrow(2, 0, k.shape[2] - 1).copy_(k.narrow(2, 1, k.shape[2] - 1))  # expect: TEN403

    def add(self, key):
        if self.filled == self.keys.shape[2]:
            self._make_room()
            self.keys[:, :, -1] = key  # ok
        else:
            self.keys[:, :, self.filled] = key
            self.filled += 1


class SinkKV(RollingKV):
    """Keeps the first position as an attention sink, slides the rest right-to-left."""

    def _make_room(self):
        k = self.keys
        k[:, :, 1:-1] = k[:, :, 2:]  # expect: TEN403
