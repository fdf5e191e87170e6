# Rolling statistics over the last N readings of several sensors (simulated telemetry stream).
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class RollingWindow:
    """win[:, 0] is the newest reading."""

    def __init__(self, sensors, n):
        self.n = n
        self.win = torch.full((sensors, n), float("nan"))

    def push(self, reading):
        n = self.n
        self.win[:, 1:n] = self.win[:, 0:n - 1]  # expect: TEN403
        self.win[:, 0] = reading  # ok

    def mean(self):
        return self.win.nanmean(1)


class RollingWindowCopy(RollingWindow):
    def push(self, reading):
        n = self.n
        self.win[:, 1:n].copy_(self.win[:, :n - 1])  # expect: TEN403
        self.win[:, 0].copy_(reading)  # ok


class RollingWindowTimeMajor:
    """hist[0] is the newest reading, time along dim 0."""

    def __init__(self, sensors, n):
        self.hist = torch.full((n, sensors), float("nan"))

    def push(self, reading):
        self.hist[1:] = self.hist[:-1].clone()  # ok
        self.hist[0] = reading  # ok

    def mean(self):
        return self.hist.nanmean(0)


class RingWindow:
    def __init__(self, sensors, n):
        self.n = n
        self.win = torch.full((sensors, n), float("nan"))
        self.count = 0

    def push(self, reading):
        self.win[:, self.count % self.n] = reading  # ok
        self.count += 1

    def mean(self):
        return self.win.nanmean(1)


def stream(sensors, steps):
    t = torch.arange(steps, dtype=torch.float32)
    base = torch.stack([torch.sin(t / (5 + s)) * (s + 1) for s in range(sensors)], 1)
    return base + 0.1 * torch.randn(steps, sensors)


def main():
    data = stream(4, 40)
    windows = [cls(4, 8) for cls in (RollingWindow, RollingWindowCopy, RollingWindowTimeMajor, RingWindow)]
    for reading in data:
        for w in windows:
            w.push(reading)
    expected = data[-8:].mean(0)
    for w in windows:
        err = (w.mean() - expected).abs().max().item()
        print(f"{type(w).__name__:22s} max error vs. direct mean: {err:.4f}")


if __name__ == "__main__":
    main()
