"""One-step-return actor-critic with SavedAction namedtuples (pytorch/examples style)."""
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3):
        super().__init__()
        self.body = nn.Linear(obs_dim, 32)
        self.action_head = nn.Linear(32, n_actions)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        h = F.relu(self.body(x))
        return F.softmax(self.action_head(h), dim=-1), self.value_head(h)


class Stats:
    def __init__(self):
        self.value_losses = []
        self.entropy_sum = 0.0
        self.episode_rewards = []


def run_episode(model, steps=10):
    entropies = []
    for _ in range(steps):
        obs = torch.randn(6)
        probs, value = model(obs)
        dist = Categorical(probs)
        action = dist.sample()
        model.saved_actions.append(SavedAction(dist.log_prob(action), value))  # ok
        entropies.append(dist.entropy())  # ok
        model.rewards.append(float(action.item() == 0))  # ok
    return torch.stack(entropies).mean()


def update(model, optimizer, stats, entropy, gamma=0.9):
    R, returns = 0.0, []
    for r in reversed(model.rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    policy_losses, value_losses = [], []
    for (log_prob, value), R in zip(model.saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)  # ok
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))  # ok
    value_loss = torch.stack(value_losses).sum()
    loss = torch.stack(policy_losses).sum() + value_loss - 0.01 * entropy
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    stats.value_losses.append(value_loss)  # expect: TEN501
    stats.entropy_sum += entropy  # expect: TEN501
    stats.episode_rewards.append(sum(model.rewards))  # ok
    del model.rewards[:]
    del model.saved_actions[:]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ActorCritic()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    stats = Stats()
    for episode in range(5):
        ent = run_episode(model)
        update(model, optimizer, stats, ent)
    print(stats.episode_rewards, float(stats.entropy_sum))
