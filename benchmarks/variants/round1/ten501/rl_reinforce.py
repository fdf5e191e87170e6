"""REINFORCE on a toy bandit-like environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs=4, n_act=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs, 32), nn.Tanh(), nn.Linear(32, n_act))

    def forward(self, s):
        return Categorical(logits=self.net(s))


def run_episode(policy, horizon=6):
    log_probs, rewards = [], []
    state = torch.randn(4)
    for t in range(horizon):
        dist = policy(state)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))  # ok
        rewards.append(float(action.item() == (state[0] > 0)))  # ok
        state = torch.randn(4)
    return log_probs, rewards


def discount(rewards, gamma=0.99):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.insert(0, g)
    return torch.tensor(out)


def train(n_episodes=8):
    policy = Policy()
    optim = torch.optim.Adam(policy.parameters(), lr=1e-2)
    all_losses = []
    returns_log = []
    for ep in range(n_episodes):
        log_probs, rewards = run_episode(policy)
        returns = discount(rewards)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = -(torch.stack(log_probs) * returns).sum()
        optim.zero_grad()
        loss.backward()
        optim.step()
        all_losses.append(loss)  # expect: TEN501
        returns_log.append(sum(rewards))  # ok
    return all_losses, returns_log


if __name__ == "__main__":
    losses, rets = train()
    print(len(losses), rets[-1])
