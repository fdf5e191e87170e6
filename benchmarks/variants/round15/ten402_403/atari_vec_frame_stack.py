"""Frame stacking for vectorised Atari-like envs, channels-first and channels-last."""
import torch

torch.manual_seed(0)


class VecFrameStack:
    """obs: (num_envs, H, W) -> stacked (num_envs, n_stack, H, W)."""

    def __init__(self, num_envs, n_stack, h, w):
        self.n_stack = n_stack
        self.stacked = torch.zeros(num_envs, n_stack, h, w)

    def reset(self, obs):
        self.stacked.zero_()
        self.stacked[:, -1] = obs  # ok
        return self.stacked.clone()

    def step(self, obs, dones):
        self.stacked[:, :-1] = self.stacked[:, 1:]  # expect: TEN403
        self.stacked[dones] = 0  # ok
        self.stacked[:, -1] = obs  # ok
        return self.stacked.clone()


class VecFrameStackChannelsLast:
    """obs: (num_envs, H, W, C) -> stacked (num_envs, H, W, C * n_stack)."""

    def __init__(self, num_envs, n_stack, h, w, c):
        self.c = c
        self.stacked = torch.zeros(num_envs, h, w, c * n_stack)

    def step(self, obs):
        c = obs.shape[-1]
        self.stacked[..., :-c] = self.stacked[..., c:]  # expect: TEN403
        self.stacked[..., -c:] = obs  # ok
        return self.stacked


class VecFrameStackRoll:
    def __init__(self, num_envs, n_stack, h, w):
        self.stacked = torch.zeros(num_envs, n_stack, h, w)

    def step(self, obs):
        self.stacked = torch.roll(self.stacked, shifts=-1, dims=1)  # ok
        self.stacked[:, -1] = obs  # ok
        return self.stacked


if __name__ == "__main__":
    E, K, H, W = 3, 4, 6, 6
    fs, fs_last, fs_roll = VecFrameStack(E, K, H, W), VecFrameStackChannelsLast(E, K, H, W, 1), VecFrameStackRoll(E, K, H, W)
    fs.reset(torch.zeros(E, H, W))
    for t in range(1, 6):
        obs = torch.full((E, H, W), float(t))
        a = fs.step(obs, torch.tensor([False, t == 3, False]))
        b = fs_last.step(obs.unsqueeze(-1))
        c = fs_roll.step(obs)
    print("in-place stack frame ids:", a[0, :, 0, 0].tolist())
    print("channels-last frame ids:", b[0, 0, 0].tolist())
    print("rolled stack frame ids:", c[0, :, 0, 0].tolist())
