"""n-step return accumulation for Rainbow-style agents, kept on the training device."""
import torch


class NStepBuffer:
    def __init__(self, n, gamma, obs_shape, device="cuda"):
        self.n = n
        self.gamma = gamma
        self.obs = torch.zeros((n, *obs_shape), device=device)
        self.actions = torch.zeros(n, dtype=torch.long, device=device)
        self.rewards = torch.zeros(n, device=device)
        self.dones = torch.zeros(n, dtype=torch.bool, device=device)
        self.discounts = gamma ** torch.arange(n, device=device, dtype=torch.float32)
        self.size = 0

    def _pop_left(self):
        self.obs[:-1], self.actions[:-1], self.dones[:-1] = self.obs[1:], self.actions[1:], self.dones[1:]  # expect: TEN403
        self.rewards[:-1] = self.rewards[1:]  # expect: TEN403
        self.size -= 1

    def _nstep_return(self):
        done_idx = torch.nonzero(self.dones[: self.size]).flatten()
        horizon = int(done_idx[0]) + 1 if done_idx.numel() else self.size
        ret = (self.rewards[:horizon] * self.discounts[:horizon]).sum()
        return ret, horizon, bool(done_idx.numel())

    def add(self, obs, action, reward, next_obs, done):
        if self.size == self.n:
            self._pop_left()
        i = self.size
        self.obs[i] = obs
        self.actions[i] = action
        self.rewards[i] = reward
        self.dones[i] = done
        self.size += 1
        if self.size < self.n and not done:
            return None
        ret, horizon, terminal = self._nstep_return()
        return self.obs[0].clone(), int(self.actions[0]), ret.item(), next_obs, terminal, self.gamma ** horizon

    def clear(self):
        self.size = 0


class VecNStepBuffer:
    """Same idea for num_envs parallel environments; shifts along dim 1."""

    def __init__(self, num_envs, n, gamma, device="cuda"):
        self.n = n
        self.rew = torch.zeros(num_envs, n, device=device)
        self.done = torch.zeros(num_envs, n, dtype=torch.bool, device=device)
        self.discounts = gamma ** torch.arange(n, device=device, dtype=torch.float32)

    def push(self, rew, done):
        self.rew[:, :-1] = self.rew[:, 1:].clone()  # ok
        self.done[:, :-1] = self.done[:, 1:].clone()  # ok
        self.rew[:, -1] = rew
        self.done[:, -1] = done
        alive = torch.cumprod(~self.done, dim=1).float()
        return (self.rew * self.discounts * torch.cat([torch.ones_like(alive[:, :1]), alive[:, :-1]], 1)).sum(1)
