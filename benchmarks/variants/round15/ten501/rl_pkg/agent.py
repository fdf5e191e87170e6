"""A2C agent; update() returns the attached total loss plus a scalar info dict."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class A2CAgent(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, gamma=0.95):
        super().__init__()
        self.gamma = gamma
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)
        self.opt = torch.optim.Adam(self.parameters(), lr=3e-3)
        self.update_count = 0
        self.entropy_hist = []
        self.adv_stats = []

    def act(self, obs):
        h = self.body(obs)
        dist = Categorical(logits=self.pi(h))
        action = dist.sample()
        return action.item(), dist.log_prob(action), self.v(h).squeeze(-1), dist.entropy()

    def _returns(self, rewards):
        R, out = 0.0, []
        for r in reversed(rewards):
            R = r + self.gamma * R
            out.insert(0, R)
        return torch.tensor(out)

    def update(self, storage):
        returns = self._returns(storage.rewards)
        values = torch.stack(storage.values)
        advantages = returns - values
        policy_loss = -(torch.stack(storage.log_probs) * advantages.detach()).mean()
        value_loss = advantages.pow(2).mean()
        entropy = torch.stack(storage.entropies).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.update_count += 1  # ok
        self.entropy_hist.append(entropy)  # expect: TEN501
        self.adv_stats.append((advantages.mean().item(), advantages.std().item()))  # ok
        info = {"policy_loss": policy_loss.item(), "value_loss": value_loss.item()}
        return loss, info
