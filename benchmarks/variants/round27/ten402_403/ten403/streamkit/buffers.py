import torch


def _scroll_into(buf, new, dim=-1):
    """Shift buf towards higher indices along dim and write new at the front."""
    n = new.shape[dim]
    size = buf.shape[dim]
    buf.narrow(dim, n, size - n).copy_(buf.narrow(dim, 0, size - n))  # expect: TEN403
    buf.narrow(dim, 0, n).copy_(new)  # ok
    return buf


class DelayLine:
    def __init__(self, channels, length):
        self.buf = torch.zeros(channels, length)

    def push(self, frame):
        return _scroll_into(self.buf, frame[:, None])


class SafeDelayLine(DelayLine):
    def push(self, frame):
        self.buf = torch.cat([frame[:, None], self.buf[:, :-1]], 1)
        return self.buf
