"""Ring buffers for rollouts and observation histories (no overlapping writes)."""
import torch


class RingBuffer:
    """Fixed-capacity buffer; writes go to a moving index, nothing is shifted."""

    def __init__(self, capacity: int, shape, dtype=torch.float32, device="cpu"):
        self.data = torch.zeros((capacity, *shape), dtype=dtype, device=device)
        self.capacity = capacity
        self.ptr = 0
        self.full = False

    def push(self, item: torch.Tensor) -> None:
        self.data[self.ptr] = item
        self.ptr = (self.ptr + 1) % self.capacity
        self.full = self.full or self.ptr == 0

    def ordered(self) -> torch.Tensor:
        if not self.full:
            return self.data[: self.ptr]
        return torch.cat([self.data[self.ptr:], self.data[: self.ptr]])  # ok

    def latest(self, k: int) -> torch.Tensor:
        idx = (torch.arange(self.ptr - k, self.ptr) % self.capacity).to(self.data.device)
        return self.data.index_select(0, idx)


class History:
    """Last T observations for each env, oldest first."""

    def __init__(self, n_envs: int, T: int, dim: int):
        self.h = torch.zeros(n_envs, T, dim)

    def push(self, obs: torch.Tensor) -> torch.Tensor:
        self.h = torch.roll(self.h, shifts=-1, dims=1)  # ok
        self.h[:, -1] = obs
        return self.h

    def push_clone(self, obs: torch.Tensor) -> torch.Tensor:
        self.h[:, :-1] = self.h[:, 1:].clone()  # ok
        self.h[:, -1] = obs
        return self.h

    def reset_done(self, done: torch.Tensor, obs: torch.Tensor) -> None:
        self.h[done] = obs[done].unsqueeze(1).expand(-1, self.h.shape[1], -1)


class DoubleBuffer:
    """Ping-pong buffers: read from one, write into the other."""

    def __init__(self, n: int, T: int):
        self.bufs = [torch.zeros(n, T), torch.zeros(n, T)]
        self.cur = 0

    def push(self, x: torch.Tensor) -> torch.Tensor:
        src, dst = self.bufs[self.cur], self.bufs[1 - self.cur]
        dst[:, :-1] = src[:, 1:]  # ok
        dst[:, -1] = x
        self.cur = 1 - self.cur
        return dst


def normalize_window_(w: torch.Tensor) -> torch.Tensor:
    """Normalise the first half of the window in place (identical region)."""
    h = w.shape[-1] // 2
    w[..., :h] = w[..., :h].clamp_(-3.0, 3.0)  # ok
    return w
