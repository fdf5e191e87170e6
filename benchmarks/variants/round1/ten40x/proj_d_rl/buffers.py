"""Storage helpers for the recurrent PPO agent."""
import torch


def make_history(num_envs, length, feat):
    return torch.zeros(num_envs, length, feat)


def make_np_history(num_envs, length, feat):
    import numpy as np
    return np.zeros((num_envs, length, feat), dtype=np.float32)


class ObsHistory:
    def __init__(self, num_envs, length, feat):
        self.data = make_history(num_envs, length, feat)

    def add(self, obs):
        self.data[:, :-1] = self.data[:, 1:]  # expect: TEN403
        self.data[:, -1] = obs
