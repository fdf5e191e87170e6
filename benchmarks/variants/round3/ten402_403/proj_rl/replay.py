"""Replay memory with n-step returns, storing tensors on the learner's device."""
import torch


class NStepAccumulator:
    """Holds the last n transitions of one environment and emits n-step transitions."""

    def __init__(self, n_step, gamma, obs_shape, device="cpu"):
        self.n = n_step
        self.gamma = gamma
        self.device = device
        self.obs = torch.zeros(n_step, *obs_shape, device=device)
        self.actions = torch.zeros(n_step, dtype=torch.long, device=device)
        self.rewards = torch.zeros(n_step, device=device)
        self.dones = torch.zeros(n_step, dtype=torch.bool, device=device)
        self.discounts = gamma ** torch.arange(n_step, dtype=torch.float32, device=device)
        self.count = 0

    def reset(self):
        self.count = 0
        self.rewards.zero_()
        self.dones.zero_()

    def push(self, obs, action, reward, done):
        if self.count == self.n:
            self.rewards[:-1], self.dones[:-1] = self.rewards[1:], self.dones[1:]  # expect: TEN403
            self.obs = torch.cat([self.obs[1:], self.obs[:1]])
            self.actions = torch.roll(self.actions, shifts=-1, dims=0)
            self.count -= 1
        i = self.count
        self.obs[i] = obs
        self.actions[i] = action
        self.rewards[i] = reward
        self.dones[i] = done
        self.count += 1

    def ready(self):
        return self.count == self.n

    def pop_transition(self):
        """Return (obs_0, action_0, n-step return, done_any) for the oldest stored step."""
        alive = torch.cumprod((~self.dones).float(), 0)
        mask = torch.cat([torch.ones(1, device=self.device), alive[:-1]])
        ret = (self.rewards * self.discounts * mask).sum()
        return self.obs[0].clone(), int(self.actions[0]), ret, bool(self.dones.any())


class ReplayMemory:
    def __init__(self, capacity, obs_shape, device="cpu"):
        self.capacity = capacity
        self.device = device
        self.obs = torch.zeros(capacity, *obs_shape, device=device)
        self.next_obs = torch.zeros(capacity, *obs_shape, device=device)
        self.actions = torch.zeros(capacity, dtype=torch.long, device=device)
        self.returns = torch.zeros(capacity, device=device)
        self.dones = torch.zeros(capacity, device=device)
        self.ptr = 0
        self.size = 0

    def add(self, obs, action, ret, next_obs, done):
        self.obs[self.ptr] = obs
        self.next_obs[self.ptr] = next_obs
        self.actions[self.ptr] = action
        self.returns[self.ptr] = ret
        self.dones[self.ptr] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,), device=self.device)
        return self.obs[idx], self.actions[idx], self.returns[idx], self.next_obs[idx], self.dones[idx]

    def __len__(self):
        return self.size
