"""Soft Actor-Critic with automatic entropy tuning."""
import copy
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

LOG_STD_MIN, LOG_STD_MAX = -5, 2


def mlp(in_dim, out_dim, hidden=256):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(),
                         nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, out_dim))


class QFunction(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q = mlp(obs_dim + act_dim, 1)

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], dim=-1)).squeeze(-1)


class SquashedGaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim, act_limit):
        super().__init__()
        self.body = mlp(obs_dim, 2 * act_dim)
        self.act_limit = act_limit

    def sample(self, obs, deterministic=False):
        mu, log_std = self.body(obs).chunk(2, dim=-1)
        log_std = torch.clamp(log_std, LOG_STD_MIN, LOG_STD_MAX)
        dist = Normal(mu, log_std.exp())
        u = mu if deterministic else dist.rsample()
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1) - (2 * (np.log(2) - u - F.softplus(-2 * u))).sum(-1)
        return self.act_limit * a, logp


class SAC:
    def __init__(self, obs_dim, act_dim, act_limit, lr=3e-4, gamma=0.99, tau=0.005, device="cpu"):
        self.device = device
        self.gamma = gamma
        self.tau = tau
        self.actor = SquashedGaussianActor(obs_dim, act_dim, act_limit).to(device)
        self.q1 = QFunction(obs_dim, act_dim).to(device)
        self.q2 = QFunction(obs_dim, act_dim).to(device)
        self.q1_targ = copy.deepcopy(self.q1).requires_grad_(False)
        self.q2_targ = copy.deepcopy(self.q2).requires_grad_(False)
        self.log_alpha = torch.zeros(1, requires_grad=True, device=device)
        self.target_entropy = -float(act_dim)

        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.q_opt = torch.optim.Adam(list(self.q1.parameters()) + list(self.q2.parameters()), lr=lr)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=lr)
        self.metrics = defaultdict(list)

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def act(self, obs, deterministic=False):
        with torch.no_grad():
            a, _ = self.actor.sample(torch.as_tensor(obs, dtype=torch.float32, device=self.device),
                                     deterministic)
        return a.cpu().numpy()

    def update(self, batch):
        s, a, r, s2, d = batch

        with torch.no_grad():
            a2, logp2 = self.actor.sample(s2)
            q_targ = torch.min(self.q1_targ(s2, a2), self.q2_targ(s2, a2)) - self.alpha * logp2
            target_q = r + self.gamma * (1.0 - d) * q_targ
            self.metrics["target_q"].append(target_q.mean())  # ok

        q_loss = F.mse_loss(self.q1(s, a), target_q) + F.mse_loss(self.q2(s, a), target_q)
        self.q_opt.zero_grad()
        q_loss.backward()
        self.q_opt.step()
        self.metrics["q_loss"].append(q_loss.item())  # ok

        for p in list(self.q1.parameters()) + list(self.q2.parameters()):
            p.requires_grad_(False)
        pi, logp = self.actor.sample(s)
        q_pi = torch.min(self.q1(s, pi), self.q2(s, pi))
        actor_loss = (self.alpha.detach() * logp - q_pi).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        for p in list(self.q1.parameters()) + list(self.q2.parameters()):
            p.requires_grad_(True)

        alpha_loss = -(self.log_alpha * (logp.detach() + self.target_entropy)).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

        self.metrics["alpha"].append(self.alpha)  # expect: TEN501
        self.metrics["entropy"].append(-logp.detach().mean())  # ok
        self._soft_update()

    @torch.no_grad()
    def _soft_update(self):
        for net, targ in ((self.q1, self.q1_targ), (self.q2, self.q2_targ)):
            for p, tp in zip(net.parameters(), targ.parameters()):
                tp.mul_(1.0 - self.tau).add_(p, alpha=self.tau)  # ok

    def summary(self, last=1000):
        out = {}
        for k, vals in self.metrics.items():
            tail = vals[-last:]
            out[k] = float(np.mean([float(v) for v in tail])) if tail else float("nan")
        return out


class Buffer:
    def __init__(self, obs_dim, act_dim, size, device):
        self.s = np.zeros((size, obs_dim), np.float32)
        self.a = np.zeros((size, act_dim), np.float32)
        self.r = np.zeros(size, np.float32)
        self.s2 = np.zeros((size, obs_dim), np.float32)
        self.d = np.zeros(size, np.float32)
        self.ptr, self.size, self.max_size, self.device = 0, 0, size, device

    def store(self, s, a, r, s2, d):
        i = self.ptr
        self.s[i], self.a[i], self.r[i], self.s2[i], self.d[i] = s, a, r, s2, d
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, n):
        idx = np.random.randint(0, self.size, n)
        return tuple(torch.as_tensor(x[idx], device=self.device)
                     for x in (self.s, self.a, self.r, self.s2, self.d))


def run(env, total_steps=1_000_000, start_steps=10_000, batch_size=256, device="cpu"):
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    agent = SAC(obs_dim, act_dim, float(env.action_space.high[0]), device=device)
    buf = Buffer(obs_dim, act_dim, 1_000_000, device)
    o, _ = env.reset()
    for t in range(total_steps):
        a = env.action_space.sample() if t < start_steps else agent.act(o)
        o2, r, term, trunc, _ = env.step(a)
        buf.store(o, a, r, o2, float(term))
        o = o2
        if term or trunc:
            o, _ = env.reset()
        if t >= start_steps:
            agent.update(buf.sample(batch_size))
        if t % 5000 == 0 and t >= start_steps:
            print(t, agent.summary())
    return agent
