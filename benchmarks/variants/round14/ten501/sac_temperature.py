"""Soft actor-critic core update with automatic entropy-temperature tuning."""
import copy
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU())
        self.mu = nn.Linear(64, act_dim)
        self.log_std = nn.Linear(64, act_dim)

    def forward(self, obs):
        h = self.net(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-5, 2)
        normal = torch.distributions.Normal(mu, log_std.exp())
        u = normal.rsample()
        action = torch.tanh(u)
        logp = normal.log_prob(u).sum(-1) - torch.log(1 - action.pow(2) + 1e-6).sum(-1)
        return action, logp


class SAC:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.01):
        self.actor = GaussianPolicy(obs_dim, act_dim)
        self.critic = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.critic_targ = copy.deepcopy(self.critic).requires_grad_(False)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.target_entropy = -float(act_dim)
        self.pi_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.q_opt = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.a_opt = torch.optim.Adam([self.log_alpha], lr=3e-4)
        self.gamma, self.tau = gamma, tau
        self.alpha_trace = []
        self.metrics = defaultdict(list)

    def q(self, net, obs, act):
        return net(torch.cat([obs, act], -1)).squeeze(-1)

    def update(self, obs, act, rew, obs2, done):
        alpha = self.log_alpha.exp().detach()
        with torch.no_grad():
            a2, logp2 = self.actor(obs2)
            backup = rew + self.gamma * (1 - done) * (self.q(self.critic_targ, obs2, a2) - alpha * logp2)
        q1 = self.q(self.critic, obs, act)
        q_loss = F.mse_loss(q1, backup)
        self.q_opt.zero_grad()
        q_loss.backward()
        self.q_opt.step()

        new_a, logp = self.actor(obs)
        pi_loss = (alpha * logp - self.q(self.critic, obs, new_a)).mean()
        self.pi_opt.zero_grad()
        pi_loss.backward()
        self.pi_opt.step()

        alpha_loss = -(self.log_alpha * (logp.detach() + self.target_entropy)).mean()
        self.a_opt.zero_grad()
        alpha_loss.backward()
        self.a_opt.step()

        with torch.no_grad():
            for tp, p in zip(self.critic_targ.parameters(), self.critic.parameters()):
                tp.mul_(1 - self.tau).add_(p, alpha=self.tau)  # ok

        self.alpha_trace.append(self.log_alpha.exp())  # expect: TEN501
        self.metrics["alpha_loss"].append(alpha_loss)  # expect: TEN501
        self.metrics["q_loss"].append(q_loss.item())  # ok
        self.metrics["q1"].append(q1.mean().item())  # ok
        self.metrics["entropy"].append(-logp.detach().mean())  # ok


def main(steps=10, batch=32):
    torch.manual_seed(0)
    agent = SAC(obs_dim=3, act_dim=2)
    w = torch.randn(3, 2)
    for step in range(steps):
        obs = torch.randn(batch, 3)
        act = torch.rand(batch, 2) * 2 - 1
        rew = -((act - torch.tanh(obs @ w)) ** 2).sum(-1)
        agent.update(obs, act, rew, torch.randn(batch, 3), torch.zeros(batch))
    print("alpha", agent.alpha_trace[-1].item())
    print({k: round(float(v[-1]), 4) for k, v in agent.metrics.items()})


if __name__ == "__main__":
    main()
