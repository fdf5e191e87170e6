"""Rolling-window features for a batch of time series, built incrementally."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def head(t, n):
    return t[:, :n]


def tail(t, n):
    return t[:, n:]


class RollingWindow:
    def __init__(self, series, width):
        self.hist = torch.zeros(series, width)

    def push(self, values):
        older, newer = self.hist[:, 1:], self.hist[:, :-1]
        newer.copy_(older)  # expect: TEN403
        self.hist[:, -1] = values
        return self.features()

    def features(self):
        return torch.stack([self.hist.mean(1), self.hist.std(1), self.hist[:, -1] - self.hist[:, 0]], 1)


class RollingWindowHelpers(RollingWindow):
    def push(self, values):
        width = self.hist.shape[1]
        head(self.hist, width - 1).copy_(tail(self.hist, 1))  # expect: TEN403
        self.hist[:, -1] = values
        return self.features()


class RollingWindowSafe(RollingWindow):
    def push(self, values):
        width = self.hist.shape[1]
        head(self.hist, width - 1).copy_(tail(self.hist, 1).clone())  # ok
        self.hist[:, -1] = values
        return self.features()


class RollingWindowNumpy:
    def __init__(self, series, width):
        self.hist = np.zeros((series, width), dtype=np.float32)

    def push(self, values):
        older, newer = self.hist[:, 1:], self.hist[:, :-1]
        newer[...] = older  # ok
        self.hist[:, -1] = values.numpy()
        h = torch.from_numpy(self.hist)
        return torch.stack([h.mean(1), h.std(1), h[:, -1] - h[:, 0]], 1)


if __name__ == "__main__":
    data = torch.randn(3, 30).cumsum(1)
    outs = {}
    for cls in (RollingWindow, RollingWindowHelpers, RollingWindowSafe, RollingWindowNumpy):
        w = cls(3, 5)
        outs[cls.__name__] = torch.stack([w.push(data[:, t]) for t in range(data.shape[1])])
    ref = outs["RollingWindowNumpy"]
    for name, o in outs.items():
        print(name, "max err vs numpy", (o - ref).abs().max().item())
