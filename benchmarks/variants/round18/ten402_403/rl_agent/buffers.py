import torch

from .tensor_utils import push_back, push_back_, window


class FrameStacker:
    def __init__(self, n_envs, k, obs_dim):
        self.k = k
        self.frames = torch.zeros(n_envs, k, obs_dim)
        self.actions = torch.zeros(n_envs, k, dtype=torch.long)

    def add(self, obs, action):
        k = self.k
        window(self.frames, 0, k - 1).copy_(window(self.frames, 1, k))  # expect: TEN403
        self.frames[:, k - 1] = obs
        push_back_(self.actions, action)
        return self.frames.flatten(1)


class CatFrameStacker:
    def __init__(self, n_envs, k, obs_dim):
        self.frames = torch.zeros(n_envs, k, obs_dim)
        self.actions = torch.zeros(n_envs, k, dtype=torch.long)

    def add(self, obs, action):
        self.frames = push_back(self.frames, obs)  # ok
        self.actions = push_back(self.actions, action)  # ok
        return self.frames.flatten(1)
