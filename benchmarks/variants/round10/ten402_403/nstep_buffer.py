"""Vectorised n-step transition builder for parallel environments (Ape-X / R2D2 style)."""
import torch


class NStepAccumulator:
    """Keeps the last `n` steps of every env on the learner device and emits n-step transitions."""

    def __init__(self, num_envs, obs_shape, n=5, gamma=0.99, device="cuda"):
        self.n = n
        self.gamma = gamma
        self.obs = torch.zeros(num_envs, n, *obs_shape, device=device)
        self.actions = torch.zeros(num_envs, n, dtype=torch.long, device=device)
        self.rewards = torch.zeros(num_envs, n, device=device)
        self.dones = torch.zeros(num_envs, n, dtype=torch.bool, device=device)
        self.discounts = gamma ** torch.arange(n, device=device, dtype=torch.float32)
        self.count = 0

    def push(self, obs, action, reward, done):
        n = self.n
        self.obs.narrow(1, 0, n - 1).copy_(self.obs.narrow(1, 1, n - 1))  # expect: TEN403
        self.actions[:, :-1] = self.actions[:, 1:].clone()  # ok
        self.rewards[:, :-1], self.dones[:, :-1] = self.rewards[:, 1:], self.dones[:, 1:]  # expect: TEN403
        self.obs[:, -1] = obs
        self.actions[:, -1] = action
        self.rewards[:, -1] = reward
        self.dones[:, -1] = done
        self.count += 1

    def ready(self):
        return self.count >= self.n

    def transitions(self, next_obs):
        """n-step returns for the oldest step in the window, truncated at the first episode end."""
        alive = torch.cat([torch.ones_like(self.dones[:, :1]), ~self.dones[:, :-1]], dim=1)  # ok
        alive = alive.float().cumprod(dim=1)
        ret = (self.rewards * self.discounts * alive).sum(dim=1)
        bootstrap = alive[:, -1] * (~self.dones[:, -1]).float() * self.gamma ** self.n
        return self.obs[:, 0], self.actions[:, 0], ret, next_obs, bootstrap
