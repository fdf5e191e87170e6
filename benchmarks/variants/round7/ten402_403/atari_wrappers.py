import gym
import numpy as np
import torch
import torch.nn.functional as F


class FrameStack(gym.Wrapper):
    """Stack the last k frames along the first axis (single env, NumPy)."""

    def __init__(self, env, k=4):
        super().__init__(env)
        self.k = k
        h, w = env.observation_space.shape[:2]
        self.stack = np.zeros((k, h, w), dtype=np.uint8)
        self.observation_space = gym.spaces.Box(0, 255, shape=(k, h, w), dtype=np.uint8)

    def reset(self, **kwargs):
        ob = self.env.reset(**kwargs)
        self.stack[:] = ob[None]
        return self.stack.copy()

    def step(self, action):
        ob, reward, done, info = self.env.step(action)
        self.stack[:-1] = self.stack[1:]  # ok
        self.stack[-1] = ob
        return self.stack.copy(), reward, done, info


class GPUFrameStack:
    """Frame stacking for a batched env that already hands back tensors (EnvPool / Isaac style)."""

    def __init__(self, venv, k=4, size=84, device="cuda"):
        self.venv = venv
        self.k = k
        self.size = size
        self.device = torch.device(device)
        self.frames = torch.zeros(venv.num_envs, k, size, size, dtype=torch.uint8, device=self.device)
        self._luma = torch.tensor([0.299, 0.587, 0.114], device=self.device)

    def _preprocess(self, obs):
        x = torch.as_tensor(obs, device=self.device).float()
        if x.shape[-1] == 3:
            x = (x * self._luma).sum(-1)
        x = F.interpolate(x.unsqueeze(1), size=(self.size, self.size), mode="bilinear", align_corners=False)
        return x.squeeze(1).clamp_(0, 255).to(torch.uint8)

    def reset(self):
        obs = self._preprocess(self.venv.reset())
        self.frames[:] = obs.unsqueeze(1)
        return self.frames

    def step(self, actions):
        obs, rew, done, info = self.venv.step(actions)
        obs = self._preprocess(obs)
        done = torch.as_tensor(done, device=self.device, dtype=torch.bool)
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs
        if done.any():
            self.frames[done] = obs[done].unsqueeze(1)
        return self.frames, rew, done, info


class LatestFirstHistory:
    """Last n proprioceptive observations per env, index 0 = most recent."""

    def __init__(self, num_envs, n, obs_dim, device="cuda"):
        self.buf = torch.zeros(num_envs, n, obs_dim, device=device)

    def push(self, obs, done=None):
        self.buf[:, 1:] = self.buf[:, :-1]  # expect: TEN403
        self.buf[:, 0] = obs
        if done is not None:
            self.buf[done, 1:] = 0.0
        return self.buf.flatten(1)


class RolledHistory(LatestFirstHistory):
    def push(self, obs, done=None):
        self.buf = torch.roll(self.buf, shifts=1, dims=1)  # ok
        self.buf[:, 0] = obs
        if done is not None:
            self.buf[done, 1:] = 0.0
        return self.buf.flatten(1)
