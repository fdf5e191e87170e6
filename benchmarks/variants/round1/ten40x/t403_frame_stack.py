"""Frame stacking for Atari-style agents (channels-first observations)."""
import numpy as np
import torch


class TorchFrameStack:
    def __init__(self, num_envs, n_stack, obs_shape, device="cpu"):
        c, h, w = obs_shape
        self.n_channels = c
        self.n_stack = n_stack
        self.stacked = torch.zeros((num_envs, c * n_stack, h, w), device=device)

    def reset(self, obs):
        self.stacked.zero_()
        self.stacked[:, -self.n_channels:] = obs
        return self.stacked

    def step(self, obs, dones):
        c = self.n_channels
        self.stacked[:, :-c] = self.stacked[:, c:]  # expect: TEN403
        self.stacked[dones] = 0
        self.stacked[:, -c:] = obs
        return self.stacked


class LastAxisFrameStack:
    """Channels-last variant (num_envs, h, w, c * n_stack)."""

    def __init__(self, num_envs, n_stack, h, w, c):
        self.c = c
        self.buf = torch.zeros(num_envs, h, w, c * n_stack)

    def step(self, obs):
        shift = self.c
        self.buf[..., :-shift] = self.buf[..., shift:]  # expect: TEN403
        self.buf[..., -shift:] = obs
        return self.buf


class ClonedFrameStack:
    def __init__(self, num_envs, n_stack, c, h, w):
        self.c = c
        self.frames = torch.zeros(num_envs, n_stack * c, h, w)

    def step(self, obs):
        c = self.c
        self.frames[:, :-c] = self.frames[:, c:].clone()  # ok: TEN403
        self.frames[:, -c:] = obs
        return self.frames


class NumpyFrameStack:
    def __init__(self, num_envs, n_stack, c, h, w):
        self.c = c
        self.frames = np.zeros((num_envs, n_stack * c, h, w), dtype=np.float32)

    def step(self, obs):
        c = self.c
        self.frames[:, :-c] = self.frames[:, c:]  # ok: TEN403
        self.frames[:, -c:] = obs
        return torch.from_numpy(self.frames)


def stack_history(history: torch.Tensor, frame: torch.Tensor, channels: int = 3):
    """Functional version used by the evaluation script."""
    history[:, channels:] = history[:, :-channels]  # expect: TEN403
    history[:, :channels] = frame
    return history


if __name__ == "__main__":
    fs = TorchFrameStack(2, 4, (3, 2, 2))
    fs.reset(torch.ones(2, 3, 2, 2))
    print(fs.step(torch.full((2, 3, 2, 2), 2.0), torch.tensor([False, False]))[0, :, 0, 0])
    print(LastAxisFrameStack(2, 3, 2, 2, 2).step(torch.ones(2, 2, 2, 2)).shape)
    print(ClonedFrameStack(1, 3, 2, 1, 1).step(torch.ones(1, 2, 1, 1)).shape)
    print(NumpyFrameStack(1, 3, 2, 1, 1).step(np.ones((1, 2, 1, 1))).shape)
    print(stack_history(torch.arange(2 * 9.0).reshape(2, 9, 1, 1), torch.zeros(2, 3, 1, 1))[:, :, 0, 0])
