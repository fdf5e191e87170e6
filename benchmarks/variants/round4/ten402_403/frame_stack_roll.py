"""Frame stacking for a batch of vectorised environments (shape: envs x k x C x H x W)."""
import torch


class VecFrameStack:
    def __init__(self, n_envs, k, obs_shape, device="cpu"):
        self.k = k
        self.stack = torch.zeros(n_envs, k, *obs_shape, device=device)

    def reset(self, obs):
        # obs: (envs, C, H, W) - fill all k slots with the first observation
        self.stack[:] = obs.unsqueeze(1)  # ok
        return self.stack

    def step(self, obs, dones):
        self.stack = torch.roll(self.stack, shifts=-1, dims=1)  # ok
        self.stack[:, -1] = obs
        if dones.any():
            self.stack[dones] = obs[dones].unsqueeze(1)  # ok: episode boundary
        return self.stack


class SingleFrameStack:
    """Same idea for one environment, rebuilding the stack with cat."""

    def __init__(self, k, obs_shape):
        self.k = k
        self.frames = torch.zeros(k, *obs_shape)

    def push(self, obs):
        self.frames = torch.cat([self.frames[1:], obs.unsqueeze(0)], dim=0)  # ok
        return self.frames

    def as_channels(self):
        k, c, h, w = self.frames.shape
        return self.frames.reshape(k * c, h, w)


class BallVecEnv:
    """Balls bouncing in a unit box; state columns are (prev_x, prev_y, x, y)."""

    def __init__(self, n, size=8, horizon=7):
        self.n, self.size, self.horizon = n, size, horizon
        self.state = torch.zeros(n, 4)
        self.vel = torch.zeros(n, 2)
        self.t = torch.zeros(n, dtype=torch.long)

    def _render(self):
        img = torch.zeros(self.n, 1, self.size, self.size)
        ij = (self.state[:, 2:4] * (self.size - 1)).round().long()
        img[torch.arange(self.n), 0, ij[:, 1], ij[:, 0]] = 1.0
        return img

    def reset(self):
        self.t.zero_()
        self.state[:, 2:4] = torch.rand(self.n, 2)
        self.state[:, :2] = self.state[:, 2:4]  # ok: disjoint columns
        self.vel = 0.1 * torch.randn(self.n, 2)
        return self._render()

    def step(self, actions):
        self.t += 1
        self.state[:, :2] = self.state[:, 2:4]  # ok: disjoint columns
        self.state[:, 2:4] += self.vel
        out = (self.state[:, 2:4] < 0) | (self.state[:, 2:4] > 1)
        self.vel[out] = -self.vel[out]
        self.state[:, 2:4].clamp_(0.0, 1.0)
        dones = self.t >= self.horizon
        self.t[dones] = 0
        return self._render(), actions.float(), dones


if __name__ == "__main__":
    torch.manual_seed(0)
    env = BallVecEnv(3)
    fs = VecFrameStack(3, 4, (1, 8, 8))
    s = fs.reset(env.reset())
    for _ in range(10):
        obs, rew, done = env.step(torch.randint(0, 2, (3,)))
        s = fs.step(obs, done)
    single = SingleFrameStack(4, (1, 8, 8))
    for _ in range(6):
        single.push(torch.rand(1, 8, 8))
    print(s.shape, single.as_channels().shape)
