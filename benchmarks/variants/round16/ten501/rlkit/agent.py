import torch
import torch.nn as nn

from .buffer import EpisodeBuffer


class PolicyValueNet(nn.Module):
    def __init__(self, n_obs=2, n_act=4, hidden=32):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(n_obs, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, n_act)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.shared(obs)
        return torch.distributions.Categorical(logits=self.policy(h)), self.value(h).squeeze(-1)


class ActorCriticAgent:
    def __init__(self, gamma=0.97, lr=5e-3):
        self.net = PolicyValueNet()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.gamma = gamma
        self.buffer = EpisodeBuffer()
        self._pending = None

    def act(self, obs):
        dist, value = self.net(torch.tensor(obs))
        action = dist.sample()
        self._pending = (dist.log_prob(action), value)  # either
        return action.item()

    def observe(self, reward):
        log_prob, value = self._pending
        self.buffer.add(log_prob, value, reward)  # ok

    def finish_episode(self):
        returns, R = [], 0.0
        for r in reversed(self.buffer.rewards):
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        values = torch.stack(self.buffer.values)
        log_probs = torch.stack(self.buffer.log_probs)
        advantage = returns - values
        loss = -(log_probs * advantage.detach()).sum() + 0.5 * advantage.pow(2).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.buffer.clear()
        return loss

    @torch.no_grad()
    def evaluate(self, env):
        obs, total, done = env.reset(), 0.0, False
        values = []
        while not done:
            dist, value = self.net(torch.tensor(obs))
            values.append(value)
            obs, r, done = env.step(int(dist.probs.argmax()))
            total += r
        return total, torch.stack(values).mean()
