import torch

torch.manual_seed(0)


class FrameStack:
    """Keeps the last K observations per environment, newest at index 0."""

    def __init__(self, n_envs, k, h, w):
        self.frames = torch.zeros(n_envs, k, h, w)

    def push(self, obs):
        self.frames[:, 1:] = self.frames[:, :-1]  # expect: TEN403
        self.frames[:, 0] = obs  # ok
        return self.frames


class ClonedFrameStack(FrameStack):
    def push(self, obs):
        self.frames[:, 1:] = self.frames[:, :-1].clone()  # ok
        self.frames[:, 0] = obs
        return self.frames


for cls in (FrameStack, ClonedFrameStack):
    torch.manual_seed(0)
    fs = cls(n_envs=3, k=4, h=2, w=2)
    for t in range(6):
        obs = torch.full((3, 2, 2), float(t + 1)) + torch.rand(3, 2, 2) * 0.01
        stack = fs.push(obs)
    print(cls.__name__, "frame means per slot:", [round(v, 4) for v in stack.mean((0, 2, 3)).tolist()])
