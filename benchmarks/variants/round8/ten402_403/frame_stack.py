"""Observation history wrappers for Atari-style and vectorized GPU environments."""
import gymnasium as gym
import numpy as np
import torch


class FrameStack(gym.Wrapper):
    """Stacks the last k frames on the CPU (numpy)."""

    def __init__(self, env, k):
        super().__init__(env)
        self.k = k
        shp = env.observation_space.shape
        self.frames = np.zeros((k,) + shp, dtype=env.observation_space.dtype)
        self.observation_space = gym.spaces.Box(
            low=0, high=255, shape=(k,) + shp, dtype=env.observation_space.dtype
        )

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.frames[:] = obs
        return self.frames.copy(), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.frames[:-1] = self.frames[1:]  # ok
        self.frames[-1] = obs
        return self.frames.copy(), reward, terminated, truncated, info


class GPUFrameStack:
    """Frame stack kept on the GPU for batched envs (e.g. EnvPool / Isaac)."""

    def __init__(self, num_envs, k, frame_shape, device="cuda"):
        self.k = k
        self.stack = torch.zeros((num_envs, k, *frame_shape), dtype=torch.uint8, device=device)

    def reset(self, obs, env_ids=None):
        if env_ids is None:
            self.stack.zero_()
            self.stack[:, -1] = obs
        else:
            self.stack[env_ids] = 0
            self.stack[env_ids, -1] = obs[env_ids]
        return self.stack

    def push(self, obs, dones):
        self.stack[:, :-1] = self.stack[:, 1:]  # expect: TEN403
        self.stack[:, -1] = obs
        if dones.any():
            self.stack[dones, :-1] = 0
        return self.stack


class RolledFrameStack(GPUFrameStack):
    def push(self, obs, dones):
        self.stack = torch.roll(self.stack, shifts=-1, dims=1)  # ok
        self.stack[:, -1] = obs
        if dones.any():
            self.stack[dones, :-1] = 0
        return self.stack


class ProprioHistory:
    """History of proprioceptive observations for legged-robot policies."""

    def __init__(self, num_envs, history_len, obs_dim, device="cuda"):
        self.history_len = history_len
        self.buf = torch.zeros(num_envs, history_len, obs_dim, device=device)

    def append(self, obs):
        h = self.history_len
        self.buf[:, : h - 1] = self.buf[:, 1:h]  # expect: TEN403
        self.buf[:, h - 1] = obs

    def reset_idx(self, env_ids, obs):
        self.buf[env_ids] = obs[env_ids].unsqueeze(1)

    def copy_from(self, other):
        self.buf[:, :-1] = other.buf[:, 1:]  # ok
        self.buf[:, -1] = other.buf[:, -1]

    def flat(self):
        return self.buf.flatten(1)
