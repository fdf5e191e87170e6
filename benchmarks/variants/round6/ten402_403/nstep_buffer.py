"""Batched n-step return accumulator for vectorized off-policy agents.

Keeps the last n transitions per environment on the training device and
emits (s_t, a_t, R_t^(n), s_{t+n}, done) once the window is full, as in
Rainbow / R2D2-style collectors.
"""
import torch


class NStepAccumulator:
    def __init__(self, n_envs, n_step, obs_dim, gamma=0.99, device="cpu"):
        self.n = n_step
        self.gamma = gamma
        self.filled = 0
        self.obs = torch.zeros(n_envs, n_step, obs_dim, device=device)
        self.actions = torch.zeros(n_envs, n_step, dtype=torch.long, device=device)
        self.rewards = torch.zeros(n_envs, n_step, device=device)
        self.dones = torch.zeros(n_envs, n_step, device=device)
        self.discounts = gamma ** torch.arange(n_step, dtype=torch.float32, device=device)

    def push(self, obs, action, reward, done):
        if self.filled == self.n:
            self.obs = torch.roll(self.obs, shifts=-1, dims=1)  # ok
            self.actions = torch.roll(self.actions, shifts=-1, dims=1)  # ok
            self.rewards[:, :-1].copy_(self.rewards[:, 1:])  # expect: TEN403
            self.dones = torch.cat([self.dones[:, 1:], self.dones[:, :1]], dim=1)  # ok
            idx = self.n - 1
        else:
            idx = self.filled
            self.filled += 1
        self.obs[:, idx] = obs
        self.actions[:, idx] = action
        self.rewards[:, idx] = reward
        self.dones[:, idx] = done.float()

    def ready(self):
        return self.filled == self.n

    def nstep_return(self):
        alive = torch.cumprod(1.0 - torch.cat([torch.zeros_like(self.dones[:, :1]), self.dones[:, :-1]], dim=1), dim=1)
        return (self.rewards * self.discounts * alive).sum(dim=1)


if __name__ == "__main__":
    acc = NStepAccumulator(n_envs=3, n_step=4, obs_dim=2, gamma=0.5)
    for t in range(10):
        acc.push(torch.full((3, 2), float(t)), torch.zeros(3, dtype=torch.long),
                 torch.full((3,), float(t)), torch.zeros(3, dtype=torch.bool))
    print("rewards window (expect 6..9):", acc.rewards[0].tolist(), "R:", acc.nstep_return()[0].item())
