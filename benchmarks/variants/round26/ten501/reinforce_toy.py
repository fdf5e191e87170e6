"""REINFORCE on a tiny contextual bandit-ish chain environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class ChainEnv:
    def __init__(self, n=5):
        self.n = n

    def reset(self):
        self.pos = 0
        self.t = 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1.0
        return o

    def step(self, a):
        self.t += 1
        self.pos = min(self.n - 1, self.pos + 1) if a == 1 else max(0, self.pos - 1)
        r = 1.0 if self.pos == self.n - 1 else -0.05
        return self._obs(), r, self.t >= 8


policy = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
env = ChainEnv()
gamma = 0.95
running_reward = 0.0
entropy_log = []
for episode in range(6):
    obs = env.reset()
    saved_log_probs, rewards = [], []
    done = False
    while not done:
        dist = Categorical(logits=policy(obs))
        action = dist.sample()
        saved_log_probs.append(dist.log_prob(action))  # ok
        entropy_log.append(dist.entropy())  # expect: TEN501
        obs, r, done = env.step(action.item())
        rewards.append(r)
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(saved_log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ep_reward = sum(rewards)
    running_reward = 0.05 * ep_reward + 0.95 * running_reward  # ok
    print(f"episode {episode} reward {ep_reward:.2f} running {running_reward:.3f} H {torch.stack(entropy_log).mean().item():.3f}")
