"""Online z-score anomaly detector over a fixed-length rolling window of
multivariate sensor readings."""
import torch


class RollingZScore:
    def __init__(self, window, num_features, threshold=3.0):
        self.n = window
        self.threshold = threshold
        self.window = torch.zeros(window, num_features)
        self.count = 0

    def _push(self, row):
        n = self.n
        if self.count < n:
            self.window[self.count] = row
        else:
            self.window.narrow(0, 0, n - 1).copy_(self.window.narrow(0, 1, n - 1))  # expect: TEN403
            self.window[n - 1] = row
        self.count += 1

    def update(self, row):
        filled = min(self.count, self.n)
        flag = torch.zeros_like(row, dtype=torch.bool)
        if filled >= 2:
            hist = self.window[:filled]
            mu, sd = hist.mean(0), hist.std(0).clamp_min(1e-6)
            flag = ((row - mu) / sd).abs() > self.threshold
        self._push(row)
        return flag


def make_series(T=200, F=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32).unsqueeze(1)
    x = torch.sin(t / 10.0 + torch.arange(F)) + 0.1 * torch.randn(T, F, generator=g)
    x[150, 1] += 5.0
    return x


if __name__ == "__main__":
    series = make_series()
    det = RollingZScore(window=32, num_features=3)
    hits = [t for t in range(series.shape[0]) if det.update(series[t]).any()]
    print("anomalies at", hits)
