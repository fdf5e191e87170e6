"""Frame stacking for vectorized Atari-like environments.

Torch port of the stacked-observation wrapper used with vec envs
(cf. stable-baselines3 StackedObservations / VecFrameStack); the NumPy
version is kept for CPU-side rollouts.
"""
import numpy as np
import torch


class TorchFrameStack:
    def __init__(self, n_envs, n_stack, obs_shape, device="cpu"):
        c, h, w = obs_shape
        self.n_channels = c
        self.n_stack = n_stack
        self.stacked_obs = torch.zeros((n_envs, n_stack * c, h, w), device=device)

    def reset(self, obs):
        self.stacked_obs.zero_()
        self.stacked_obs[:, -self.n_channels:] = obs
        return self.stacked_obs

    def update(self, obs, dones):
        c = self.n_channels
        self.stacked_obs[:, :-c] = self.stacked_obs[:, c:]  # expect: TEN403
        for i, done in enumerate(dones):
            if done:
                self.stacked_obs[i] = 0
        self.stacked_obs[:, -c:] = obs
        return self.stacked_obs


class NumpyFrameStack:
    def __init__(self, n_envs, n_stack, obs_shape):
        c, h, w = obs_shape
        self.n_channels = c
        self.stacked_obs = np.zeros((n_envs, n_stack * c, h, w), dtype=np.uint8)

    def update(self, obs, dones):
        c = self.n_channels
        self.stacked_obs[:, :-c] = self.stacked_obs[:, c:]  # ok
        self.stacked_obs[np.asarray(dones, dtype=bool)] = 0
        self.stacked_obs[:, -c:] = obs
        return self.stacked_obs


if __name__ == "__main__":
    torch.manual_seed(0)
    fs = TorchFrameStack(n_envs=2, n_stack=4, obs_shape=(1, 3, 3))
    fs.reset(torch.zeros(2, 1, 3, 3))
    for t in range(1, 6):
        fs.update(torch.full((2, 1, 3, 3), float(t)), dones=[False, False])
    print("torch stack (expect 2,3,4,5):", fs.stacked_obs[0, :, 0, 0].tolist())
    nfs = NumpyFrameStack(2, 4, (1, 3, 3))
    for t in range(1, 6):
        nfs.update(np.full((2, 1, 3, 3), t, dtype=np.uint8), dones=[False, False])
    print("numpy stack:", nfs.stacked_obs[0, :, 0, 0].tolist())
