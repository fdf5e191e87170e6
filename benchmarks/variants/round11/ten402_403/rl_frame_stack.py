"""Atari-style frame stacking wrapper around a vectorised environment (observations are tensors)."""
import numpy as np
import torch


class FakeVecEnv:
    def __init__(self, n_envs=8, h=84, w=84):
        self.n_envs, self.h, self.w = n_envs, h, w

    def reset(self):
        return torch.rand(self.n_envs, 1, self.h, self.w)

    def step(self, actions):
        obs = torch.rand(self.n_envs, 1, self.h, self.w)
        rew = torch.randn(self.n_envs)
        done = torch.rand(self.n_envs) < 0.01
        return obs, rew, done


class FrameStack:
    def __init__(self, env, k=4):
        self.env = env
        self.k = k
        self.c = 1
        self.frames = torch.zeros(env.n_envs, k * self.c, env.h, env.w)

    def reset(self):
        obs = self.env.reset()
        self.frames.zero_()
        self.frames[:, -self.c:] = obs  # ok
        return self.frames

    def step(self, actions):
        obs, rew, done = self.env.step(actions)
        self.frames[:, :-self.c] = self.frames[:, self.c:]  # expect: TEN403
        self.frames[:, -self.c:] = obs
        self.frames[done] = 0.0
        self.frames[done, -self.c:] = obs[done]  # ok
        return self.frames, rew, done


class FrameStackCat(FrameStack):
    def step(self, actions):
        obs, rew, done = self.env.step(actions)
        self.frames = torch.cat((self.frames[:, self.c:], obs), dim=1)  # ok
        self.frames[done, :-self.c] = 0.0
        return self.frames, rew, done


class NumpyFrameStack:
    def __init__(self, k=4, h=84, w=84):
        self.frames = np.zeros((k, h, w), dtype=np.uint8)

    def push(self, frame):
        self.frames[:-1] = self.frames[1:]  # ok
        self.frames[-1] = frame
        return torch.from_numpy(self.frames.copy())


if __name__ == "__main__":
    env = FakeVecEnv()
    stack = FrameStack(env)
    stack.reset()
    for _ in range(10):
        s, r, d = stack.step(torch.zeros(8, dtype=torch.long))
    print(s.shape)
