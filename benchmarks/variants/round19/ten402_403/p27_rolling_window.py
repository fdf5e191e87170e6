"""Rolling window of recent metric values per worker, kept in a preallocated tensor."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class RollingStats:
    def __init__(self, n_workers, window):
        self.buf = torch.zeros(n_workers, window)
        self.count = 0

    @property
    def history(self):
        return self.buf[:, :-1]

    @property
    def latest_slots(self):
        return self.buf[:, 1:]

    def push(self, values):
        self.latest_slots.copy_(self.history)  # expect: TEN403
        self.buf[:, 0] = values  # ok
        self.count += 1

    def mean(self):
        n = min(self.count, self.buf.shape[1])
        return self.buf[:, :n].mean(1)


class RollingStatsSafe(RollingStats):
    def push(self, values):
        self.latest_slots.copy_(self.history.clone())  # ok
        self.buf[:, 0] = values  # ok
        self.count += 1


a, b = RollingStats(3, 4), RollingStatsSafe(3, 4)
for step in range(6):
    v = torch.randn(3)
    a.push(v)
    b.push(v)
print("means:", a.mean().tolist(), b.mean().tolist())
