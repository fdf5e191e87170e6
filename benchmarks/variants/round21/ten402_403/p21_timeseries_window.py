"""Streaming time-series features: a (batch, window) buffer of the most recent readings per sensor,
used to compute lagged features / rolling means for an online forecaster."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

WINDOW = 6


class NewestFirstWindow:
    """window[:, 0] is the newest reading, window[:, k] the reading from k steps ago."""

    def __init__(self, n_series, safe=False):
        self.window = torch.zeros(n_series, WINDOW)
        self.safe = safe

    def push(self, x):
        if self.safe:
            self.window[:, 1:] = self.window[:, :-1].clone()  # ok
        else:
            self.window[:, 1:] = self.window[:, :-1]  # expect: TEN403
        self.window[:, 0] = x  # ok


class NewestLastWindow:
    """window[:, -1] is the newest reading (left shift, then write at the end)."""

    def __init__(self, n_series):
        self.window = torch.zeros(n_series, WINDOW)

    def push(self, x):
        self.window[:, :-1] = self.window[:, 1:]  # either: TEN403
        self.window[:, -1] = x


class RolledWindow:
    def __init__(self, n_series):
        self.window = torch.zeros(n_series, WINDOW)

    def push(self, x):
        self.window = torch.roll(self.window, shifts=1, dims=1)  # ok
        self.window[:, 0] = x


class CatWindow:
    def __init__(self, n_series):
        self.window = torch.zeros(n_series, WINDOW)

    def push(self, x):
        self.window = torch.cat([x.unsqueeze(1), self.window[:, :-1]], dim=1)  # ok


class RollingMean:
    """1-D history of a single aggregate metric; newest at the end."""

    def __init__(self, n):
        self.values = torch.zeros(n)

    def push(self, v):
        try:
            self.values[:-1] = self.values[1:]  # expect: TEN403
        except RuntimeError as e:
            print("    RollingMean.push failed:", str(e).split(".")[0])
            return False
        self.values[-1] = v
        return True


if __name__ == "__main__":
    stream = torch.arange(1.0, 9.0).unsqueeze(0).repeat(3, 1) * torch.tensor([[1.0], [10.0], [100.0]])
    for cls in (NewestFirstWindow, RolledWindow, CatWindow):
        w = cls(3)
        for t in range(stream.shape[1]):
            w.push(stream[:, t])
        print(f"{cls.__name__:18s} row1 = {w.window[1].tolist()}")
    w = NewestFirstWindow(3, safe=True)
    for t in range(stream.shape[1]):
        w.push(stream[:, t])
    print(f"{'NewestFirst(safe)':18s} row1 = {w.window[1].tolist()}")
    w = NewestLastWindow(3)
    for t in range(stream.shape[1]):
        w.push(stream[:, t])
    print(f"{'NewestLastWindow':18s} row1 = {w.window[1].tolist()}")
    rm = RollingMean(4)
    ok = all(rm.push(float(v)) for v in range(1, 7))
    print(f"RollingMean ok={ok} mean={rm.values.mean().item():.3f} values={rm.values.tolist()}")
