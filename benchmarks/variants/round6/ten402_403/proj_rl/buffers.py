"""History buffers for recurrent / frame-stacked policies."""
import numpy as np
import torch


def shift_append(buf, item):
    """Drop the oldest row of `buf` (dim 0) and write `item` as the newest row."""
    buf[:-1] = buf[1:]  # expect: TEN403
    buf[-1] = item
    return buf


def shift_append_safe(buf, item):
    buf[:-1] = buf[1:].clone()  # ok
    buf[-1] = item
    return buf


def np_shift_append(arr, item):
    arr[:-1] = arr[1:]  # ok
    arr[-1] = item
    return arr


class PrevActionHistory:
    """Most-recent-first history of one-hot previous actions, per environment.

    buffer: (n_envs, history * n_actions); slot 0 holds the latest action.
    """

    def __init__(self, n_envs, history, n_actions):
        self.n_actions = n_actions
        self.buffer = torch.zeros(n_envs, history * n_actions)

    def push(self, actions):
        k = self.n_actions
        self.buffer[:, k:] = self.buffer[:, :-k]  # expect: TEN403
        self.buffer[:, :k] = torch.nn.functional.one_hot(actions, k).float()
        return self.buffer

    def reset(self, mask):
        self.buffer[mask] = 0.0


class ObsHistory:
    def __init__(self, length, obs_dim):
        self.data = np.zeros((length, obs_dim), dtype=np.float32)

    def push(self, obs):
        return np_shift_append(self.data, obs)
