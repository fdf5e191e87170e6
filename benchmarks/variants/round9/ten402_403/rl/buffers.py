"""On-device buffers for vectorised environments."""
import torch


class FrameStack:
    """Stack the last ``k`` observations along the channel axis.

    Observations are (N, C, H, W); the stacked tensor is (N, k*C, H, W) with the
    newest frame in the last C channels.
    """

    def __init__(self, num_envs, k, channels, height, width, device="cuda", dtype=torch.uint8):
        self.k = k
        self.c = channels
        self.frames = torch.zeros(num_envs, k * channels, height, width, dtype=dtype, device=device)

    def reset(self, obs, env_mask=None):
        tiled = obs.repeat(1, self.k, 1, 1)
        if env_mask is None:
            self.frames.copy_(tiled)
        else:
            self.frames[env_mask] = tiled[env_mask]
        return self.frames

    def step(self, obs):
        self.frames[:, :-self.c] = self.frames[:, self.c:]  # expect: TEN403
        self.frames[:, -self.c:] = obs
        return self.frames


class RecentTransitions:
    """Sliding window of the most recent transitions, kept contiguous and oldest-first so
    that a sequence model can read it without index arithmetic."""

    def __init__(self, capacity, obs_dim, device="cuda"):
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.act = torch.zeros(capacity, dtype=torch.long, device=device)
        self.rew = torch.zeros(capacity, device=device)
        self.size = 0

    def _drop_oldest(self):
        src = self.obs[1:self.size]
        self.obs[: self.size - 1] = src  # expect: TEN403
        self.act[: self.size - 1] = self.act[1:self.size].clone()  # ok
        self.rew = torch.cat([self.rew[1:], self.rew.new_zeros(1)])  # ok
        self.size -= 1

    def add(self, obs, act, rew):
        if self.size == self.capacity:
            self._drop_oldest()
        self.obs[self.size] = obs
        self.act[self.size] = act
        self.rew[self.size] = rew
        self.size += 1

    def window(self):
        return self.obs[: self.size], self.act[: self.size], self.rew[: self.size]


class NStepReturns:
    """Per-environment n-step discounted return over the last ``n`` rewards (oldest first)."""

    def __init__(self, num_envs, n, gamma, device="cuda"):
        self.n = n
        self.rewards = torch.zeros(num_envs, n, device=device)
        self.discounts = gamma ** torch.arange(n, device=device, dtype=torch.float32)

    def push(self, reward, done):
        self.rewards = torch.roll(self.rewards, shifts=-1, dims=1)  # ok
        self.rewards[:, -1] = reward
        ret = (self.rewards * self.discounts).sum(dim=1)
        self.rewards[done] = 0.0
        return ret
