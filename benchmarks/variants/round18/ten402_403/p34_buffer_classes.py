"""A small hierarchy of history buffers with a shared push implementation."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class BaseHistory:
    field = "data"

    def __init__(self, rows, length):
        setattr(self, self.field, torch.zeros(rows, length))

    def push(self, column):
        data = getattr(self, self.field)
        data[:, :-1] = data[:, 1:]  # expect: TEN403
        data[:, -1] = column
        return data


class RewardHistory(BaseHistory):
    field = "rewards"


class ShiftRightHistory(BaseHistory):
    """Newest value first: shift towards higher indices."""
    field = "values"

    def push(self, column):
        data = getattr(self, self.field)
        data[:, 1:] = data[:, :-1].clone()  # ok
        data[:, 0] = column
        return data


class RingHistory:
    """Write pointer instead of shifting; read back in chronological order."""

    def __init__(self, rows, length):
        self.data = torch.zeros(rows, length)
        self.ptr = 0

    def push(self, column):
        self.data[:, self.ptr % self.data.shape[1]] = column  # ok
        self.ptr += 1
        order = (torch.arange(self.data.shape[1]) + self.ptr) % self.data.shape[1]
        return self.data[:, order]


if __name__ == "__main__":
    hists = [BaseHistory(2, 5), RewardHistory(2, 5), ShiftRightHistory(2, 5), RingHistory(2, 5)]
    for t in range(8):
        col = torch.tensor([float(t), 10.0 + t])
        outs = [h.push(col) for h in hists]
    for h, o in zip(hists, outs):
        print(type(h).__name__, o[0].tolist())
