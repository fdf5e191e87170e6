"""REINFORCE on a tiny line-world, pytorch/examples style."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class LineWorld:
    def __init__(self, n=4, max_t=6):
        self.n = n
        self.max_t = max_t

    def _obs(self):
        return F.one_hot(torch.tensor(self.pos), self.n + 1).float()

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def step(self, action):
        self.t += 1
        self.pos = min(self.n, max(0, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n or self.t >= self.max_t
        reward = 1.0 if self.pos == self.n else -0.1
        return self._obs(), reward, done


class Policy(nn.Module):
    def __init__(self, n_obs, n_act=2):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(n_obs, 16), nn.ReLU(), nn.Linear(16, n_act))

    def forward(self, x):
        return F.softmax(self.fc(x), dim=-1)


def compute_returns(rewards, gamma=0.99):
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + 1e-6) if len(returns) > 1 else returns


env = LineWorld()
policy = Policy(env.n + 1)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)

episode_losses = []
all_log_probs = []
returns_hist = []
ep_rewards = []
running_reward = 0.0
for episode in range(4):
    state = env.reset()
    log_probs = []
    rewards = []
    for t in range(env.max_t):
        probs = policy(state)
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))  # ok
        state, reward, done = env.step(action.item())
        rewards.append(reward)  # ok
        if done:
            break
    returns = compute_returns(rewards)
    policy_loss = torch.stack([-lp * R for lp, R in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()

    ep_reward = sum(rewards)
    running_reward = 0.05 * ep_reward + 0.95 * running_reward  # ok
    ep_rewards.append(ep_reward)  # ok
    episode_losses.append(policy_loss)  # expect: TEN501
    all_log_probs.extend(log_probs)  # expect: TEN501
    returns_hist.append(returns.mean().item())  # ok

print(f"episodes={len(ep_rewards)} running reward={running_reward:.3f} last={ep_rewards[-1]:.2f}")
