"""GPU-resident frame stacking for vectorised Atari-style environments."""
import torch


class FrameStack:
    """Keeps the last `k` grayscale frames per env: (num_envs, k, H, W) uint8."""

    def __init__(self, num_envs, k=4, shape=(84, 84), device="cuda"):
        self.k = k
        self.frames = torch.zeros(num_envs, k, *shape, dtype=torch.uint8, device=device)

    def reset(self, obs):
        self.frames[:] = obs.unsqueeze(1)
        return self.frames

    def push(self, obs, dones):
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs
        if dones.any():
            self.frames[dones] = obs[dones].unsqueeze(1)
        return self.frames

    def snapshot(self):
        return self.frames.float().div_(255.0)


class ChannelFrameStack:
    """Stacks RGB frames along the channel axis: (num_envs, k * C, H, W) float32, for Procgen/DMC pixels."""

    def __init__(self, num_envs, channels=3, k=4, shape=(64, 64), device="cuda"):
        self.c = channels
        self.k = k
        self.obs = torch.zeros(num_envs, k * channels, *shape, device=device)

    def push(self, frame):
        c = self.c
        self.obs[:, :-c] = self.obs[:, c:]  # expect: TEN403
        self.obs[:, -c:] = frame
        return self.obs


class RolledFrameStack(ChannelFrameStack):
    """Same layout as ChannelFrameStack; used by the evaluation workers."""

    def push(self, frame):
        self.obs = torch.roll(self.obs, shifts=-self.c, dims=1)  # ok
        self.obs[:, -self.c:] = frame
        return self.obs

    def push_many(self, frames):
        for f in frames.unbind(1):
            self.obs[:, :-self.c] = self.obs[:, self.c:].clone()  # ok
            self.obs[:, -self.c:] = f
        return self.obs
