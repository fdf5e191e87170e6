import torch

torch.manual_seed(0)


class RollingWindow:
    def __init__(self, n_features, size):
        self.buf = torch.zeros(n_features, size)

    def push(self, v):
        self.buf[..., 1:] = self.buf[..., :-1]  # expect: TEN403
        self.buf[..., 0] = v  # ok

    def mean(self):
        return self.buf.mean(-1)


class RollingWindowRoll(RollingWindow):
    def push(self, v):
        self.buf.copy_(torch.roll(self.buf, 1, -1))  # ok
        self.buf[..., 0] = v


class RollingWindowCat(RollingWindow):
    def push(self, v):
        self.buf.copy_(torch.cat([v[:, None], self.buf[:, :-1]], -1))  # ok


stream = torch.randn(20, 3)
for cls in (RollingWindow, RollingWindowRoll, RollingWindowCat):
    w = cls(3, 5)
    for v in stream:
        w.push(v)
    print(f"{cls.__name__:18s} moving average {[round(x, 4) for x in w.mean().tolist()]}")
