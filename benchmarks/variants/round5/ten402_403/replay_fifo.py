"""Small FIFO replay memory for an on-device DQN; once full, the oldest
transition is dropped by shifting everything one slot down."""
import torch


class FIFOReplay:
    def __init__(self, capacity, obs_dim, device="cpu"):
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.next_obs = torch.zeros(capacity, obs_dim, device=device)
        self.actions = torch.zeros(capacity, dtype=torch.long, device=device)
        self.rewards = torch.zeros(capacity, device=device)
        self.size = 0

    def add(self, obs, action, reward, next_obs):
        if self.size == self.capacity:
            self.obs[:-1].copy_(self.obs[1:])  # expect: TEN403
            self.next_obs[:-1].copy_(self.next_obs[1:].clone())  # ok
            self.actions = torch.cat([self.actions[1:], self.actions[:1]])  # ok
            self.rewards = torch.roll(self.rewards, -1)  # ok
            i = self.capacity - 1
        else:
            i = self.size
            self.size += 1
        self.obs[i] = obs
        self.next_obs[i] = next_obs
        self.actions[i] = action
        self.rewards[i] = reward

    def sample(self, batch_size, generator=None):
        idx = torch.randint(0, self.size, (batch_size,), generator=generator)
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx]


if __name__ == "__main__":
    mem = FIFOReplay(capacity=5, obs_dim=2)
    for t in range(8):
        mem.add(torch.full((2,), float(t)), t % 3, float(t), torch.full((2,), t + 1.0))
    print("obs:", mem.obs[:, 0].tolist(), "(expected [3, 4, 5, 6, 7])")
    print(mem.sample(4, torch.Generator().manual_seed(0))[2].tolist())
