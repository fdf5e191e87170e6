"""Vectorised n-step return accumulator for DQN-style agents (newest first)."""
import torch


class NStepAccumulator:
    """Keeps the last n rewards per env, index 0 = most recent."""

    def __init__(self, n, num_envs, obs_dim, gamma=0.99):
        self.n = n
        self.gamma = gamma
        self.rewards = torch.zeros(num_envs, n)
        self.dones = torch.zeros(num_envs, n)
        self.obs = torch.zeros(num_envs, n, obs_dim)
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32)

    def push(self, obs, reward, done):
        self.rewards[:, 1:] = self.rewards[:, :-1]  # expect: TEN403
        self.rewards[:, 0] = reward
        self.dones = torch.roll(self.dones, shifts=1, dims=1)  # ok
        self.dones[:, 0] = done
        self.obs[:, 1:] = self.obs[:, :-1].clone()  # ok
        self.obs[:, 0] = obs

    def n_step_return(self):
        # oldest transition is at index n-1; its return sums rewards n-1 .. 0
        r = self.rewards.flip(1)
        alive = torch.cumprod(1.0 - torch.cat([torch.zeros_like(self.dones[:, :1]), self.dones.flip(1)[:, :-1]], 1), 1)
        return (r * alive * self.discounts).sum(1)


if __name__ == "__main__":
    acc = NStepAccumulator(n=4, num_envs=2, obs_dim=3, gamma=0.5)
    for t in range(1, 7):
        acc.push(torch.full((2, 3), float(t)), torch.tensor([float(t), 10.0 * t]), torch.zeros(2))
    print("rewards (expect [[6,5,4,3],[60,50,40,30]]):", acc.rewards.tolist())
    print("obs first feature:", acc.obs[:, :, 0].tolist())
    print("n-step return:", acc.n_step_return().tolist())
