"""REINFORCE on a tiny bandit-like chain environment."""
import random

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


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

    def step(self, action):
        self.t += 1
        self.pos = min(self.n - 1, self.pos + 1) if action == 1 else max(0, self.pos - 1)
        reward = 1.0 if self.pos == self.n - 1 else -0.1
        done = self.pos == self.n - 1 or self.t >= 12
        return self._obs(), reward, done


class Policy(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, 16), nn.ReLU(), nn.Linear(16, 2))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return torch.softmax(self.net(x), dim=-1)


env = ChainEnv()
policy = Policy(env.n)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99
running_reward = 0.0
policy_loss_history = []
all_log_probs = []
entropy_log = []

for episode in range(20):
    state = env.reset()
    ep_reward = 0.0
    done = False
    ep_entropy = 0.0
    while not done:
        probs = policy(state)
        m = Categorical(probs)
        action = m.sample()
        policy.saved_log_probs.append(m.log_prob(action))  # ok
        ep_entropy = ep_entropy + m.entropy()
        state, reward, done = env.step(action.item())
        policy.rewards.append(reward)  # ok
        ep_reward += reward

    R = 0.0
    returns = []
    for r in reversed(policy.rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    if len(returns) > 1:
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_loss = torch.stack([-lp * g for lp, g in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()

    policy_loss_history.append(policy_loss)  # expect: TEN501
    all_log_probs.extend(policy.saved_log_probs)  # expect: TEN501
    entropy_log.append(ep_entropy)  # expect: TEN501
    running_reward = 0.05 * ep_reward + 0.95 * running_reward  # ok
    del policy.saved_log_probs[:]
    del policy.rewards[:]

print("running reward %.4f" % running_reward)
print("loss hist", len(policy_loss_history), round(float(policy_loss_history[-1]), 4))
print("log probs kept", len(all_log_probs), "entropy", round(float(sum(entropy_log)), 4))
