"""N-step return accumulator feeding a replay buffer (single environment)."""
from collections import deque

import torch

N_STEP = 5
GAMMA = 0.99


class NStepAccumulator:
    def __init__(self, obs_dim: int):
        self.obs = torch.zeros(N_STEP + 1, obs_dim)
        self.act = torch.zeros(N_STEP, dtype=torch.long)
        self.rew = torch.zeros(N_STEP)
        self.done = torch.zeros(N_STEP)
        self.count = 0
        self.discounts = GAMMA ** torch.arange(N_STEP, dtype=torch.float32)

    def add(self, obs, action, reward, next_obs, done):
        """Returns an n-step transition once the window is full, else None."""
        if self.count == N_STEP:
            self.obs[:-1].copy_(self.obs[1:])  # expect: TEN403
            self.act[:-1] = self.act[1:].clone()  # ok
            self.rew[:-1], self.done[:-1] = self.rew[1:], self.done[1:]  # expect: TEN403
            self.count -= 1
        i = self.count
        self.obs[i] = torch.as_tensor(obs)
        self.obs[i + 1] = torch.as_tensor(next_obs)
        self.act[i] = int(action)
        self.rew[i] = float(reward)
        self.done[i] = float(done)
        self.count += 1
        if self.count < N_STEP:
            return None
        alive = torch.cumprod(1.0 - torch.cat([torch.zeros(1), self.done[:-1]]), 0)  # ok
        ret = (self.discounts * self.rew * alive).sum()
        return self.obs[0].clone(), int(self.act[0]), ret, self.obs[-1].clone(), bool(self.done.any())


class DequeNStep:
    """Same thing with a python deque; no tensor shifting at all."""

    def __init__(self, n: int = N_STEP, gamma: float = GAMMA):
        self.n = n
        self.gamma = gamma
        self.q = deque(maxlen=n)

    def add(self, obs, action, reward, next_obs, done):
        self.q.append((obs, action, reward, next_obs, done))
        if len(self.q) < self.n:
            return None
        ret, last_obs, last_done = 0.0, next_obs, done
        for o, a, r, no, d in reversed(self.q):
            ret = r + self.gamma * ret * (1.0 - d)
            if d:
                last_obs, last_done = no, d
        o0, a0 = self.q[0][0], self.q[0][1]
        return torch.as_tensor(o0), a0, ret, torch.as_tensor(last_obs), last_done


class VariableNStep:
    def __init__(self, n: int, obs_dim: int):
        self.n = n
        self.rew = torch.zeros(n)
        self.obs = torch.zeros(n + 1, obs_dim)

    def shift(self, k: int):
        """Drop the k oldest entries (1 <= k <= n)."""
        self.rew[:-k] = self.rew[k:]  # either
        self.obs = torch.cat([self.obs[k:], self.obs.new_zeros(k, self.obs.shape[1])])  # ok
