"""REINFORCE on a toy bandit-chain; per-episode buffers are fine, cross-episode ones are not."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, s):
        return Categorical(logits=self.net(s))


def env_step(state, action):
    reward = 1.0 if action == int(state[0] > 0) else -0.2
    return torch.randn(3), reward


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.9
all_log_probs = []
returns_hist = []
episode_returns = []
loss_hist = []

for episode in range(8):
    state = torch.randn(3)
    log_probs, rewards = [], []
    for t in range(10):
        dist = policy(state)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))  # ok
        state, reward = env_step(state, action.item())
        rewards.append(reward)
    G, returns = 0.0, []
    for r in reversed(rewards):
        G = r + gamma * G
        returns.insert(0, G)
    returns = torch.tensor(returns)
    returns_hist.append(returns)  # ok
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    all_log_probs.extend(log_probs)  # expect: TEN501
    episode_returns.append(sum(rewards))  # ok
    loss_hist.append(loss)  # expect: TEN501
    print(f"episode {episode} return {sum(rewards):.2f} loss {loss.item():.3f}")

print("mean entropy proxy:", -torch.stack(all_log_probs).mean().item())
print("first-step returns:", [round(float(r[0]), 3) for r in returns_hist[:3]])
