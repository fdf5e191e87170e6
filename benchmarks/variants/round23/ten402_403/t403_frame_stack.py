"""Atari-style frame stacking for an RL agent."""
import torch

torch.manual_seed(0)


class FrameStack:
    """Keeps the last k observations, newest last."""

    def __init__(self, k, shape):
        self.frames = torch.zeros(k, *shape)

    def push(self, obs):
        self.frames[:-1] = self.frames[1:]  # expect: TEN403
        self.frames[-1] = obs
        return self.frames


class CatFrameStack(FrameStack):
    def push(self, obs):
        self.frames = torch.cat([self.frames[1:], obs.unsqueeze(0)], dim=0)  # ok
        return self.frames


class RollFrameStack(FrameStack):
    def push(self, obs):
        self.frames = torch.roll(self.frames, shifts=-1, dims=0)  # ok
        self.frames[-1] = obs
        return self.frames


obs_seq = [torch.full((3, 3), float(i)) for i in range(1, 6)]
for cls in (FrameStack, CatFrameStack, RollFrameStack):
    stack = cls(4, (3, 3))
    try:
        for o in obs_seq:
            out = stack.push(o)
        print(cls.__name__, "frame means:", [round(f.mean().item(), 3) for f in out])
    except RuntimeError as e:
        print(cls.__name__, "RuntimeError:", str(e).split(".")[0])
