"""Frame-stacking observation wrappers for pixel RL (single and vectorised envs)."""
import torch


class FrameStack:
    """Oldest frame first: frames[0] is t-k+1, frames[-1] is t."""

    def __init__(self, k, h, w):
        self.frames = torch.zeros(k, h, w)

    def reset(self, frame):
        self.frames[:] = frame  # ok

    def push(self, frame):
        self.frames[:-1] = self.frames[1:]  # expect: TEN403
        self.frames[-1] = frame
        return self.frames


class RollFrameStack(FrameStack):
    def push(self, frame):
        self.frames = torch.roll(self.frames, shifts=-1, dims=0)  # ok
        self.frames[-1] = frame  # ok
        return self.frames


class CatFrameStack(FrameStack):
    def push(self, frame):
        self.frames = torch.cat([self.frames[1:], frame[None]], dim=0)  # ok
        return self.frames


class VecFrameStack:
    """Newest frame first along the channel axis: obs[:, :c] is the latest frame."""

    def __init__(self, n_envs, c, k, h, w):
        self.c, self.k = c, k
        self.obs = torch.zeros(n_envs, c * k, h, w)

    def reset(self, first):
        for i in range(self.k):
            self.obs[:, i * self.c:(i + 1) * self.c] = first  # ok

    def push(self, frame, dones=None):
        self.obs[:, self.c:] = self.obs[:, :-self.c]  # expect: TEN403
        self.obs[:, :self.c] = frame  # ok
        if dones is not None and dones.any():
            self.obs[dones] = frame[dones].repeat(1, self.k, 1, 1)  # ok
        return self.obs


class VecFrameStackSafe(VecFrameStack):
    def push(self, frame, dones=None):
        self.obs[:, self.c:] = self.obs[:, :-self.c].clone()  # ok
        self.obs[:, :self.c] = frame  # ok
        if dones is not None:
            self.obs[dones] = frame[dones].repeat(1, self.k, 1, 1)
        return self.obs


def frames_for(t, *shape):
    return torch.full(shape, float(t))


if __name__ == "__main__":
    for cls in (FrameStack, RollFrameStack, CatFrameStack):
        stack = cls(4, 2, 2)
        stack.reset(frames_for(0, 2, 2))
        try:
            for t in range(1, 6):
                out = stack.push(frames_for(t, 2, 2))
            print(cls.__name__, "ages:", out[:, 0, 0].tolist())
        except RuntimeError as err:
            print(cls.__name__, "failed:", str(err).split(".")[0])

    for cls in (VecFrameStack, VecFrameStackSafe):
        vec = cls(n_envs=2, c=3, k=4, h=2, w=2)
        vec.reset(frames_for(0, 2, 3, 2, 2))
        for t in range(1, 4):
            dones = torch.tensor([False, t == 3])
            obs = vec.push(frames_for(t, 2, 3, 2, 2), dones)
        print(cls.__name__, "channel ages env0:", obs[0, :, 0, 0].tolist(), "env1 after done:", obs[1, ::3, 0, 0].tolist())
