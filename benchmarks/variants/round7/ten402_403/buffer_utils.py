"""Assorted tensor helpers used by the data pipeline and the online policy."""
import numpy as np
import torch


def tile_pos_embed(pos: torch.Tensor, grid: int = 24) -> torch.Tensor:
    """(1, 2*grid, D) table whose second half repeats the first (used for two stacked views)."""
    pos[:, grid:2 * grid] = pos[:, 0:grid]  # ok
    return pos


def duplicate_channels(b: torch.Tensor) -> torch.Tensor:
    b[:, 24:48] = b[:, 0:24]  # ok
    return b


def copy_half(a: torch.Tensor, h: int) -> torch.Tensor:
    a[:, :h] = a[:, h:2 * h]  # ok
    return a


class ObsHistory:
    """NumPy history used by the CPU actor processes."""

    def __init__(self, n, dim):
        self.hist = np.zeros((n, dim), dtype=np.float32)

    def push(self, obs):
        self.hist[:-1] = self.hist[1:]  # ok
        self.hist[-1] = obs
        return self.hist.reshape(-1)


class TorchHistory:
    def __init__(self, num_envs, n, dim, device="cpu"):
        self.hist = torch.zeros(num_envs, n, dim, device=device)

    def push(self, obs):
        self.hist[:, :-1] = self.hist[:, 1:].clone()  # ok
        self.hist[:, -1] = obs
        return self.hist.flatten(1)

    def push_rolled(self, obs):
        self.hist = self.hist.roll(-1, dims=1)  # ok
        self.hist[:, -1] = obs
        return self.hist.flatten(1)

    def push_cat(self, obs):
        self.hist = torch.cat((self.hist[:, 1:], obs.unsqueeze(1)), 1)  # ok
        return self.hist.flatten(1)


def shifted_targets(src: torch.Tensor) -> torch.Tensor:
    dst = torch.empty_like(src)
    dst[:, :-1] = src[:, 1:]  # ok
    dst[:, -1] = src[:, -1]
    return dst


def clip_prefix(audio: torch.Tensor, n: int) -> torch.Tensor:
    audio[:, :n] = audio[:, :n].clamp(-1.0, 1.0)  # ok
    return audio


def first_difference(x: torch.Tensor) -> torch.Tensor:
    x[:, 1:] = x[:, 1:] - x[:, :-1]  # ok
    return x
