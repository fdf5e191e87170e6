"""Frame stacking for vectorised Atari environments (channels-first tensors)."""
import torch


class AtariFrameStack:
    """Always stacks the last 4 frames: obs tensor is (n_envs, 4 * c, 84, 84)."""

    def __init__(self, n_envs: int, channels: int = 1, device: str = "cpu"):
        self.c = channels
        self.frames = torch.zeros(n_envs, 4 * channels, 84, 84, dtype=torch.uint8, device=device)

    def reset(self, first_obs: torch.Tensor) -> torch.Tensor:
        self.frames.copy_(first_obs.repeat(1, 4, 1, 1))
        return self.frames

    def step(self, obs: torch.Tensor, dones: torch.Tensor) -> torch.Tensor:
        c = self.c
        self.frames[:, : 3 * c] = self.frames[:, c:]  # expect: TEN403
        self.frames[:, 3 * c:] = obs
        if dones.any():
            self.frames[dones] = obs[dones].repeat(1, 4, 1, 1)
        return self.frames


class VecFrameStack:
    """Configurable number of stacked frames."""

    def __init__(self, n_envs, channels, height, width, n_stack=4, device="cpu"):
        self.c = channels
        self.n_stack = n_stack
        self.buf = torch.zeros(n_envs, n_stack * channels, height, width, device=device)

    def step(self, obs):
        c = self.c
        self.buf[:, :-c] = self.buf[:, c:]  # either
        self.buf[:, -c:] = obs
        return self.buf

    def step_cat(self, obs):
        self.buf = torch.cat((self.buf[:, self.c:], obs), dim=1)  # ok
        return self.buf

    def step_roll(self, obs):
        self.buf = torch.roll(self.buf, shifts=-self.c, dims=1)  # ok
        self.buf[:, -self.c:] = obs
        return self.buf


class LazyStack:
    """Keeps frames in a python ring and only stacks on demand."""

    def __init__(self, n_stack=4):
        self.n_stack = n_stack
        self.ring = []

    def push(self, frame):
        self.ring.append(frame)
        if len(self.ring) > self.n_stack:
            self.ring.pop(0)

    def stacked(self):
        frames = list(self.ring)
        while len(frames) < self.n_stack:
            frames.insert(0, frames[0])
        return torch.cat(frames, dim=0)


def shift_history_(hist: torch.Tensor, new: torch.Tensor) -> torch.Tensor:
    """hist: (B, 4, D) history of the last 4 feature vectors, newest last."""
    hist[:, 0:3] = hist[:, 1:4].clone()  # ok
    hist[:, 3] = new
    return hist
