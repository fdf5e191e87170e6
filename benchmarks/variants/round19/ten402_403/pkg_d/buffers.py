import torch


def older(buf, n=1):
    return buf[:, :-n]


def newer(buf, n=1):
    return buf[:, n:]


def push_front_(buf, x):
    buf[:, 1:] = buf[:, :-1]  # expect: TEN403
    buf[:, 0] = x  # ok
    return buf


def push_front(buf, x):
    buf[:, 1:] = buf[:, :-1].clone()  # ok
    buf[:, 0] = x  # ok
    return buf


class History:
    def __init__(self, batch, length, dim):
        self.data = torch.zeros(batch, length, dim)

    @property
    def tail(self):
        return self.data[:, 1:]

    @property
    def head(self):
        return self.data[:, :-1]

    def advance(self, x):
        self.head.copy_(self.tail)  # expect: TEN403
        self.data[:, -1] = x  # ok
