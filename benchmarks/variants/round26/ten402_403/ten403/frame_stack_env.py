import torch

torch.manual_seed(0)


class FrameStack:
    """Keeps the last k frames of a batch of environments: (envs, k, h, w)."""

    def __init__(self, envs, k, h, w):
        self.frames = torch.zeros(envs, k, h, w)

    def reset(self, obs):
        self.frames[:] = obs.unsqueeze(1)  # ok
        return self.frames

    def push(self, obs):
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs  # ok
        return self.frames


class CatFrameStack(FrameStack):
    def push(self, obs):
        self.frames = torch.cat([self.frames[:, 1:], obs.unsqueeze(1)], dim=1)  # ok
        return self.frames


class OldestFirstStack(FrameStack):
    def push(self, obs):
        self.frames[:, 1:] = self.frames[:, :-1]  # expect: TEN403
        self.frames[:, 0] = obs  # ok
        return self.frames


def rollout(stack_cls):
    torch.manual_seed(1)
    st = stack_cls(3, 4, 5, 5)
    st.reset(torch.rand(3, 5, 5))
    for t in range(6):
        out = st.push(torch.full((3, 5, 5), float(t)) + torch.rand(3, 5, 5) * 0.01)
    return out


for cls in (FrameStack, CatFrameStack, OldestFirstStack):
    out = rollout(cls)
    print(cls.__name__, [round(v, 4) for v in out.mean((0, 2, 3)).tolist()])
