"""Rolling feature statistics for online normalisation of sensor streams."""
import torch


class RollingStats:
    """Keeps the last `size` rows of a (size, features) history."""

    def __init__(self, size, features, aligned_lag=0):
        self.size = size
        self.hist = torch.zeros(size, features)
        self.filled = 0
        self.aligned_lag = aligned_lag

    def push(self, rows):
        k = rows.shape[0]
        if k == 0:
            return
        if k >= self.size:
            self.hist[:] = rows[-self.size:]  # ok
        else:
            self.hist[:-k] = self.hist[k:]  # expect: TEN403
            self.hist[-k:] = rows
        self.filled = min(self.size, self.filled + k)

    def stats(self):
        h = self.hist[self.size - self.filled:]
        return h.mean(0), h.std(0, unbiased=False) + 1e-6

    def normalise(self, rows):
        mean, std = self.stats()
        return (rows - mean) / std

    def align(self):
        lag = self.aligned_lag
        self.hist[lag:] = self.hist[:self.size - lag]  # either
        return self.hist


class RollingStatsSafe(RollingStats):
    def push(self, rows):
        k = rows.shape[0]
        if k == 0:
            return
        if k >= self.size:
            self.hist[:] = rows[-self.size:]  # ok
        else:
            self.hist[:-k] = self.hist[k:].clone()  # ok
            self.hist[-k:] = rows  # ok
        self.filled = min(self.size, self.filled + k)

    def align(self):
        lag = self.aligned_lag
        if lag == 0:
            return self.hist
        self.hist[lag:] = self.hist[:-lag].clone()  # ok
        self.hist[:lag] = 0  # ok
        return self.hist


if __name__ == "__main__":
    torch.manual_seed(0)
    stream = [torch.randn(n, 3) * 2 + 1 for n in (2, 3, 0, 2, 6, 1)]
    for cls in (RollingStatsSafe, RollingStats):
        rs = cls(size=5, features=3)
        try:
            for rows in stream:
                rs.push(rows)
            rs.align()
            mean, std = rs.stats()
            print(cls.__name__, "mean", [round(v, 3) for v in mean.tolist()], "std", [round(v, 3) for v in std.tolist()])
        except RuntimeError as err:
            print(cls.__name__, "failed:", str(err)[:50])
    lagged = RollingStatsSafe(size=5, features=3, aligned_lag=2)
    lagged.push(torch.arange(15.0).view(5, 3))
    print("lagged align:", lagged.align()[:, 0].tolist())
    exact = RollingStats(size=5, features=3)
    exact.push(torch.arange(15.0).view(5, 3))
    print("zero-lag align:", exact.align()[:, 0].tolist())
