"""N-step return accumulator for vectorised environments (num_envs, n) windows."""
import torch

torch.manual_seed(0)


class NStepWindow:
    def __init__(self, num_envs, n, obs_dim, gamma=0.99):
        self.n, self.gamma = n, gamma
        self.obs = torch.zeros(num_envs, n, obs_dim)
        self.rewards = torch.zeros(num_envs, n)
        self.dones = torch.zeros(num_envs, n)
        self.count = 0
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32)  # ok

    def push(self, obs, reward, done):
        self.obs[:, :-1] = self.obs[:, 1:]  # expect: TEN403
        self.rewards[:, :-1] = self.rewards[:, 1:].clone()  # ok
        self.dones[:, :-1] = self.dones[:, 1:]  # expect: TEN403
        self.obs[:, -1], self.rewards[:, -1], self.dones[:, -1] = obs, reward, done  # ok
        self.count = min(self.count + 1, self.n)

    def nstep_return(self):
        alive = torch.cumprod(1 - torch.cat([torch.zeros_like(self.dones[:, :1]), self.dones[:, :-1]], 1), 1)  # ok
        return (self.rewards * self.discounts * alive).sum(1)


class ReplayStore:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.ret = torch.zeros(capacity)
        self.ptr, self.full, self.capacity = 0, False, capacity

    def add(self, obs, ret):
        b = obs.shape[0]
        idx = (self.ptr + torch.arange(b)) % self.capacity
        self.obs[idx] = obs  # ok
        self.ret[idx] = ret  # ok
        self.ptr = (self.ptr + b) % self.capacity
        self.full = self.full or self.ptr < b

    def sample(self, k):
        hi = self.capacity if self.full else self.ptr
        idx = torch.randint(0, hi, (k,))
        return self.obs[idx], self.ret[idx]


if __name__ == "__main__":
    E, N, D = 3, 4, 2
    win, store = NStepWindow(E, N, D), ReplayStore(16, D)
    for t in range(10):
        win.push(torch.randn(E, D), torch.ones(E), torch.zeros(E))
        if win.count == N:
            store.add(win.obs[:, 0].clone(), win.nstep_return())
    o, r = store.sample(5)
    print(o.shape, r[:3])
