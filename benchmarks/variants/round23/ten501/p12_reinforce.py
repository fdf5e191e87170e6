"""REINFORCE on a toy bandit-like environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ToyEnv:
    def __init__(self, horizon=4):
        self.horizon = horizon

    def reset(self):
        self.t = 0
        return torch.randn(3)

    def step(self, action):
        self.t += 1
        reward = 1.0 if action == 1 else 0.0
        return torch.randn(3), reward, self.t >= self.horizon


torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
env = ToyEnv()
all_log_probs = []
returns_hist = []
entropy_log = []
for episode in range(4):
    obs = env.reset()
    log_probs, rewards = [], []
    ep_entropy = 0.0
    done = False
    while not done:
        dist = Categorical(logits=policy(obs))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))  # ok
        ep_entropy = ep_entropy + dist.entropy()  # ok
        obs, reward, done = env.step(action.item())
        rewards.append(reward)
    ret = sum(rewards)
    loss = -torch.stack(log_probs).sum() * ret - 0.01 * ep_entropy
    opt.zero_grad()
    loss.backward()
    opt.step()
    all_log_probs.extend(log_probs)  # expect: TEN501
    returns_hist.append(ret)  # ok
    entropy_log.append(ep_entropy)  # expect: TEN501
print(len(all_log_probs), returns_hist, len(entropy_log))
