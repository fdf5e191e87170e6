"""Frame stacking for vectorised Atari-style environments."""
from collections import deque

import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

N_ENVS, K, H, W = 3, 4, 6, 6


def fake_obs(t):
    return torch.full((N_ENVS, H, W), float(t)) + torch.arange(N_ENVS).view(-1, 1, 1) * 100


class VecFrameStack:
    """Keeps (N, K, H, W); the newest frame is at index K-1."""

    def __init__(self):
        self.stack = torch.zeros(N_ENVS, K, H, W)

    def reset(self, obs):
        self.stack.zero_()
        self.stack[:, -1] = obs  # ok
        return self.stack

    def step(self, obs, dones):
        self.stack[:, :-1] = self.stack[:, 1:]  # expect: TEN403
        self.stack[:, -1] = obs  # ok
        self.stack[dones] = 0.0  # ok
        return self.stack


class ChannelFrameStack:
    """Keeps stacked frames in the channel dimension of (N, K*C, H, W) with C=1."""

    def __init__(self):
        self.obs = torch.zeros(N_ENVS, K, H, W)

    def step(self, obs, dones):
        last = self.obs.shape[1] - 1
        self.obs[:, :last] = self.obs[:, -last:]  # expect: TEN403
        self.obs[:, last:] = obs.unsqueeze(1)
        return self.obs


class CatFrameStack:
    def __init__(self):
        self.stack = torch.zeros(N_ENVS, K, H, W)

    def step(self, obs, dones):
        self.stack = torch.cat([self.stack[:, 1:], obs.unsqueeze(1)], dim=1)  # ok
        return self.stack


class DequeFrameStack:
    def __init__(self):
        self.frames = deque([np.zeros((N_ENVS, H, W), np.float32)] * K, maxlen=K)

    def step(self, obs, dones):
        self.frames.append(obs.numpy())
        return torch.from_numpy(np.stack(self.frames, axis=1))  # ok


class NumpyFrameStack:
    def __init__(self):
        self.stack = np.zeros((N_ENVS, K, H, W), np.float32)

    def step(self, obs, dones):
        self.stack[:, :-1] = self.stack[:, 1:]  # ok
        self.stack[:, -1] = obs.numpy()
        return torch.from_numpy(self.stack)


if __name__ == "__main__":
    stacks = [VecFrameStack(), ChannelFrameStack(), CatFrameStack(), DequeFrameStack(), NumpyFrameStack()]
    stacks[0].reset(fake_obs(0))
    no_done = torch.zeros(N_ENVS, dtype=torch.bool)
    for t in range(1, 7):
        outs = [s.step(fake_obs(t), no_done) for s in stacks]
    ref = outs[2]
    for s, o in zip(stacks, outs):
        print(type(s).__name__, "matches cat:", torch.equal(o, ref), o[0, :, 0, 0].tolist())
