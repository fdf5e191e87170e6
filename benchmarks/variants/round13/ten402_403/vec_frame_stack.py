"""Frame stacking for a batch of environments with (N, C, H, W) observations."""
import torch


class NewestFirstStack:
    """Stacked layout (N, C*k, H, W); channels [0:C] hold the newest frame."""

    def __init__(self, n_envs, channels, k, hw=(8, 8)):
        self.c = channels
        self.k = k
        self.stacked = torch.zeros(n_envs, channels * k, *hw)

    def reset(self, obs):
        self.stacked.zero_()
        self.stacked[:, : self.c] = obs  # ok
        return self.stacked

    def step(self, obs, dones):
        c = self.c
        self.stacked[:, c:] = self.stacked[:, :-c]  # expect: TEN403
        self.stacked[:, :c] = obs
        if dones.any():
            self.stacked[dones, c:] = 0.0  # ok
        return self.stacked


class NewestLastStack:
    """Stable-baselines style: roll the channel axis, then write the last C channels."""

    def __init__(self, n_envs, channels, k, hw=(8, 8)):
        self.c = channels
        self.stacked = torch.zeros(n_envs, channels * k, *hw)

    def reset(self, obs):
        self.stacked.zero_()
        self.stacked[:, -self.c:] = obs  # ok
        return self.stacked

    def step(self, obs, dones):
        self.stacked = torch.roll(self.stacked, shifts=-self.c, dims=1)  # ok
        if dones.any():
            self.stacked[dones] = 0.0
        self.stacked[:, -self.c:] = obs  # ok
        return self.stacked


class ListStack:
    """Keeps frames in a Python list and concatenates on demand."""

    def __init__(self, k):
        self.k = k
        self.frames = []

    def reset(self, obs):
        self.frames = [obs] * self.k
        return torch.cat(self.frames, dim=1)

    def step(self, obs):
        self.frames[:-1] = self.frames[1:]  # ok
        self.frames[-1] = obs
        return torch.cat(self.frames, dim=1)  # ok


def rollout(stack_cls, steps=5, n_envs=2, channels=3, k=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    stack = stack_cls(n_envs, channels, k)
    out = stack.reset(torch.rand(n_envs, channels, 8, 8, generator=g))
    history = [out.clone()]
    for t in range(steps):
        obs = torch.rand(n_envs, channels, 8, 8, generator=g)
        dones = torch.zeros(n_envs, dtype=torch.bool)
        history.append(stack.step(obs, dones).clone())
    return history


if __name__ == "__main__":
    first = rollout(NewestFirstStack)[-1]
    last = rollout(NewestLastStack)[-1]
    # newest-first reversed by frame should equal newest-last
    n, ck, h, w = first.shape
    flipped = first.view(n, 4, 3, h, w).flip(1).reshape(n, ck, h, w)
    print("layouts agree:", torch.allclose(flipped, last))
    ls = ListStack(4)
    ls.reset(torch.zeros(1, 3, 8, 8))
    print(ls.step(torch.ones(1, 3, 8, 8)).shape)
