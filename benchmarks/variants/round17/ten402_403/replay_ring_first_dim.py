"""Loss plateau detector and observation history shifted along the first dim."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LossWindow:
    def __init__(self, n):
        self.buf = torch.full((n,), float("nan"))

    def push(self, value):
        try:
            self.buf[1:] = self.buf[:-1]  # expect: TEN403
        except RuntimeError:
            self.buf[1:] = self.buf[:-1].clone()  # ok
        self.buf[0] = value  # ok

    def plateau(self, tol):
        if torch.isnan(self.buf).any():
            return False
        return (self.buf.max() - self.buf.min()).item() < tol


class RingHistory:
    """No shifting at all: a write pointer walks around the first dim."""

    def __init__(self, n, d):
        self.data = torch.zeros(n, d)
        self.ptr = 0

    def push(self, x):
        self.data[self.ptr] = x  # ok
        self.ptr = (self.ptr + 1) % self.data.shape[0]

    def ordered(self):
        return torch.roll(self.data, -self.ptr, dims=0)  # ok


def main():
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    window, ring = LossWindow(6), RingHistory(5, 4)
    x = torch.randn(64, 4)
    y = x @ torch.tensor([[0.5], [-1.0], [2.0], [0.0]])
    for step in range(200):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        window.push(loss.item())
        ring.push(x[step % 64])
        if window.plateau(1e-4):
            break
    print("stopped at step", step, "loss", round(loss.item(), 6), "ring", ring.ordered().shape)


if __name__ == "__main__":
    main()
