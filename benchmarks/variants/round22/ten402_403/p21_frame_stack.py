"""Frame stacking for a vectorised Atari-like environment (channels = k * c)."""
import torch

torch.manual_seed(0)


class FakeVecEnv:
    def __init__(self, n_envs, c, h, w):
        self.n, self.c, self.h, self.w = n_envs, c, h, w
        self.t = 0

    def reset(self):
        self.t = 0
        return self._obs()

    def step(self):
        self.t += 1
        return self._obs()

    def _obs(self):
        # every frame carries its time index so stacking errors are visible
        base = torch.full((self.n, self.c, self.h, self.w), float(self.t))
        return base + torch.arange(self.n).view(-1, 1, 1, 1) * 100


class NewestFirstStack:
    """Newest frame in channels [0:c]; older frames move towards the end."""

    def __init__(self, n_envs, k, c, h, w):
        self.c = c
        self.buf = torch.zeros(n_envs, k * c, h, w)

    def push(self, obs):
        self.buf[:, self.c:] = self.buf[:, :-self.c]  # expect: TEN403
        self.buf[:, :self.c] = obs
        return self.buf


class OldestFirstStack:
    """Oldest frame first; shift left by one frame and write the newest at the end."""

    def __init__(self, n_envs, k, c, h, w):
        self.c = c
        self.buf = torch.zeros(n_envs, k * c, h, w)

    def push(self, obs):
        self.buf[:, :-self.c] = self.buf[:, self.c:]  # either: TEN403
        self.buf[:, -self.c:] = obs
        return self.buf


class CatStack:
    def __init__(self, n_envs, k, c, h, w):
        self.c = c
        self.buf = torch.zeros(n_envs, k * c, h, w)

    def push(self, obs):
        self.buf = torch.cat([self.buf[:, self.c:], obs], dim=1)  # ok
        return self.buf


class RollStack:
    def __init__(self, n_envs, k, c, h, w):
        self.c = c
        self.buf = torch.zeros(n_envs, k * c, h, w)

    def push(self, obs):
        self.buf = torch.roll(self.buf, shifts=-self.c, dims=1)  # ok
        self.buf[:, -self.c:] = obs  # ok
        return self.buf


def frame_ids(buf, c):
    # one number per stacked frame of env 1 (top-left pixel of each frame)
    return buf[1, ::c, 0, 0].tolist()


env = FakeVecEnv(n_envs=3, c=2, h=4, w=4)
for cls in (NewestFirstStack, OldestFirstStack, CatStack, RollStack):
    stack = cls(3, 4, 2, 4, 4)
    stack.push(env.reset())
    for _ in range(5):
        out = stack.push(env.step())
    print(f"{cls.__name__:<17} env1 frames {frame_ids(out, 2)}")

# single-environment evaluation wrapper: batch dim of 1
single = torch.zeros(1, 4 * 3, 2, 2)
try:
    for t in range(6):
        single[:, :-3] = single[:, 3:]  # expect: TEN403
        single[:, -3:] = float(t)
    print("single env frames", single[0, ::3, 0, 0].tolist())
except RuntimeError as err:
    print("single env stack failed:", str(err).split(".")[0])
