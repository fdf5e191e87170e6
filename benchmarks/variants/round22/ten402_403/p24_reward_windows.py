"""Rolling statistics for RL logging: sliding windows vs a proper ring buffer."""
import torch

torch.manual_seed(0)


class SlidingWindow:
    """Keeps the last N episode returns, oldest first."""

    def __init__(self, n):
        self.data = torch.zeros(n)
        self.count = 0

    def add(self, value):
        self.data[:-1] = self.data[1:].clone()  # ok
        self.data[-1] = value
        self.count += 1

    def mean(self):
        k = min(self.count, len(self.data))
        return self.data[-k:].mean().item()


class NewestFirstWindow:
    def __init__(self, n):
        self.data = torch.zeros(n)

    def add(self, value):
        self.data[1:] = self.data[:-1]  # expect: TEN403
        self.data[0] = value


class RingBuffer:
    """Fixed-size ring buffer with a write pointer; nothing is shifted."""

    def __init__(self, n, dim):
        self.data = torch.zeros(n, dim)
        self.ptr, self.full = 0, False

    def add(self, x):
        self.data[self.ptr] = x  # ok
        self.ptr = (self.ptr + 1) % len(self.data)
        self.full = self.full or self.ptr == 0

    def ordered(self):
        if not self.full:
            return self.data[:self.ptr]
        return torch.cat([self.data[self.ptr:], self.data[:self.ptr]])  # ok


class InterleavedObsHistory:
    """Rows alternate (obs, next_obs) per env; odd rows keep a lagged copy of the even ones."""

    def __init__(self, n_envs, length, lag):
        self.h = torch.zeros(2 * n_envs, length)
        self.lag = lag

    def step(self, values):
        s = self.lag
        self.h[1::2, s:] = self.h[1::2, :-s]  # expect: TEN403
        self.h[1::2, :s] = self.h[0::2, -s:]  # ok
        self.h[0::2, :-1] = self.h[0::2, 1:]  # either: TEN403
        self.h[0::2, -1] = values


returns = torch.randn(15) * 10 + 50
w, nf, ring = SlidingWindow(5), NewestFirstWindow(5), RingBuffer(4, 2)
for i, r in enumerate(returns.tolist()):
    w.add(r)
    ring.add(torch.tensor([float(i), r]))
print(f"sliding mean of last 5: {w.mean():.4f} (true {returns[-5:].mean().item():.4f})")
print("ring order:", ring.ordered()[:, 0].tolist())
try:
    for r in returns.tolist():
        nf.add(r)
    print("newest-first window:", [round(v, 3) for v in nf.data.tolist()])
except RuntimeError as err:
    print("newest-first window failed:", str(err).split(".")[0])

hist = InterleavedObsHistory(n_envs=2, length=6, lag=2)
for t in range(1, 9):
    hist.step(torch.tensor([float(t), 10.0 + t]))
print("even rows:", hist.h[0::2].tolist())
print("odd rows: ", hist.h[1::2].tolist())
