"""On-policy actor-critic agent."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

from pkg_rl.buffers import EpisodeBuffer
from pkg_rl.stats import archive, record_extra, record_stat


class Net(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.pi = nn.Linear(16, n_act)
        self.v = nn.Linear(16, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class A2CAgent:
    def __init__(self, obs_dim=3, n_act=2, gamma=0.95, lr=1e-2):
        self.net = Net(obs_dim, n_act)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.gamma = gamma
        self.buffer = EpisodeBuffer()
        self.loss_history = []
        self.loss_values = []
        self.last_loss = None
        self.updates = 0

    def act(self, obs):
        logits, value = self.net(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        return action.item(), dist.log_prob(action), value, dist.entropy()

    def remember(self, log_prob, value, reward, entropy):
        self.buffer.add(log_prob, value, reward, entropy)  # ok

    def learn(self):
        returns, R = [], 0.0
        for r in reversed(self.buffer.rewards):
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        values = torch.stack(self.buffer.values)
        log_probs = torch.stack(self.buffer.log_probs)
        entropy = torch.stack(self.buffer.entropies).mean()
        advantage = returns - values
        actor_loss = -(log_probs * advantage.detach()).mean()
        critic_loss = advantage.pow(2).mean()
        loss = actor_loss + 0.5 * critic_loss - 0.01 * entropy
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

        self.loss_history.append(loss)  # expect: TEN501
        self.loss_values.append(loss.item())  # ok
        self.last_loss = loss  # either
        self.updates += 1  # ok
        record_stat("entropy", entropy)  # expect: TEN501
        record_stat("return", returns[0].item())  # ok
        record_extra("critic_loss", critic_loss.detach())  # ok
        record_extra("actor_loss", actor_loss)  # expect: TEN501
        archive(self.buffer.log_probs)  # expect: TEN501
        self.buffer.reset()
        return F.smooth_l1_loss(values.detach(), returns).item()
