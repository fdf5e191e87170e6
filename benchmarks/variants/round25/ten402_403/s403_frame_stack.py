"""Vectorised Atari-style frame stacking for N environments."""
import torch


class FrameStack:
    def __init__(self, n_envs, k, h, w):
        self.k = k
        self.frames = torch.zeros(n_envs, k, h, w)

    def reset(self, obs):
        self.frames[:] = obs.unsqueeze(1)  # ok
        return self.frames

    def push(self, obs):
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs  # ok
        return self.frames


class FrameStackCat:
    def __init__(self, k):
        self.k = k
        self.frames = None

    def reset(self, obs):
        self.frames = obs.unsqueeze(1).repeat(1, self.k, 1, 1)
        return self.frames

    def push(self, obs):
        self.frames = torch.cat([self.frames[:, 1:], obs.unsqueeze(1)], dim=1)  # ok
        return self.frames


torch.manual_seed(0)
envs, k = 3, 4
fs, fc = FrameStack(envs, k, 5, 5), FrameStackCat(k)
o = torch.rand(envs, 5, 5)
fs.reset(o)
fc.reset(o)
for step in range(7):
    o = torch.rand(envs, 5, 5) + step
    a, b = fs.push(o), fc.push(o)
print("per-frame means (in-place)", [round(v, 4) for v in a[0].mean((1, 2)).tolist()])
print("per-frame means (cat)     ", [round(v, 4) for v in b[0].mean((1, 2)).tolist()])
print("max abs diff", round((a - b).abs().max().item(), 6))
