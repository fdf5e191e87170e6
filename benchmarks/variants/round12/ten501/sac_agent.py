import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=256, max_action=1.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)
        self.max_action = max_action

    def sample(self, obs):
        h = self.net(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-20, 2)
        dist = Normal(mu, log_std.exp())
        u = dist.rsample()
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1, keepdim=True) - torch.log(1 - a.pow(2) + 1e-6).sum(-1, keepdim=True)
        return a * self.max_action, logp


class TwinCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=256):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        sa = torch.cat([obs, act], -1)
        return self.q1(sa), self.q2(sa)


class SAC:
    def __init__(self, obs_dim, act_dim, lr=3e-4, gamma=0.99, tau=0.005):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = TwinCritic(obs_dim, act_dim)
        self.critic_target = copy.deepcopy(self.critic).requires_grad_(False)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_optim = torch.optim.Adam([self.log_alpha], lr=lr)
        self.target_entropy = -float(act_dim)
        self.gamma, self.tau = gamma, tau
        self.alpha_history = []
        self.logs = {"q1": [], "q2": [], "policy": [], "alpha_loss": []}

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def update(self, batch):
        state, action, reward, next_state, done = batch
        with torch.no_grad():
            next_action, next_logp = self.actor.sample(next_state)
            q1_t, q2_t = self.critic_target(next_state, next_action)
            min_q = torch.min(q1_t, q2_t) - self.alpha * next_logp
            target_q = reward + (1 - done) * self.gamma * min_q
        q1, q2 = self.critic(state, action)
        q1_loss = F.mse_loss(q1, target_q)
        q2_loss = F.mse_loss(q2, target_q)
        self.critic_optim.zero_grad()
        (q1_loss + q2_loss).backward()
        self.critic_optim.step()

        pi, logp = self.actor.sample(state)
        q1_pi, q2_pi = self.critic(state, pi)
        policy_loss = (self.alpha.detach() * logp - torch.min(q1_pi, q2_pi)).mean()
        self.actor_optim.zero_grad()
        policy_loss.backward()
        self.actor_optim.step()

        alpha_loss = -(self.log_alpha * (logp + self.target_entropy).detach()).mean()
        self.alpha_optim.zero_grad()
        alpha_loss.backward()
        self.alpha_optim.step()

        self.logs["q1"].append(q1_loss.item())  # ok
        self.logs["q2"].append(q2_loss.detach().cpu())  # ok
        self.logs["policy"].append(policy_loss)  # expect: TEN501
        self.logs["alpha_loss"].append(alpha_loss.item())  # ok
        self.alpha_history.append(self.alpha)  # expect: TEN501
        self._soft_update()

    def _soft_update(self):
        with torch.no_grad():
            for p, tp in zip(self.critic.parameters(), self.critic_target.parameters()):
                tp.mul_(1 - self.tau).add_(self.tau * p)  # ok
