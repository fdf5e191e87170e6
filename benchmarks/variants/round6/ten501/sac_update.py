"""Soft Actor-Critic, spinning-up style: ReplayBuffer, EpochLogger, update()."""
from collections import defaultdict
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size):
        self.obs_buf = torch.zeros(size, obs_dim)
        self.obs2_buf = torch.zeros(size, obs_dim)
        self.act_buf = torch.zeros(size, act_dim)
        self.rew_buf = torch.zeros(size)
        self.done_buf = torch.zeros(size)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, obs, act, rew, next_obs, done):
        self.obs_buf[self.ptr] = obs
        self.obs2_buf[self.ptr] = next_obs
        self.act_buf[self.ptr] = act
        self.rew_buf[self.ptr] = rew
        self.done_buf[self.ptr] = done
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample_batch(self, batch_size=32):
        idxs = torch.randint(0, self.size, (batch_size,))
        return (self.obs_buf[idxs], self.act_buf[idxs], self.rew_buf[idxs],
                self.obs2_buf[idxs], self.done_buf[idxs])


class EpochLogger:
    def __init__(self):
        self.epoch_dict = defaultdict(list)

    def store(self, **kwargs):
        for k, v in kwargs.items():
            self.epoch_dict[k].append(v)

    def log_tabular(self, key):
        vals = self.epoch_dict[key]
        mean = sum(float(v) for v in vals) / max(len(vals), 1)
        print(f"{key:>12s} | {mean:.4f}")

    def dump_tabular(self):
        self.epoch_dict.clear()


class SquashedGaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)

    def forward(self, obs, deterministic=False):
        h = self.net(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-20, 2)
        dist = Normal(mu, log_std.exp())
        u = mu if deterministic else dist.rsample()
        logp = dist.log_prob(u).sum(-1) - (2 * (torch.log(torch.tensor(2.0)) - u - F.softplus(-2 * u))).sum(-1)
        return torch.tanh(u), logp


class DoubleQ(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        x = torch.cat([obs, act], dim=-1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


class SAC:
    def __init__(self, obs_dim, act_dim, gamma=0.99, polyak=0.995, lr=1e-3):
        self.actor = SquashedGaussianActor(obs_dim, act_dim)
        self.critic = DoubleQ(obs_dim, act_dim)
        self.critic_targ = deepcopy(self.critic)
        for p in self.critic_targ.parameters():
            p.requires_grad = False
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha = 0.2
        self.target_entropy = -float(act_dim)
        self.gamma, self.polyak = gamma, polyak
        self.pi_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.q_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.a_opt = torch.optim.Adam([self.log_alpha], lr=lr)

    @torch.no_grad()
    def act(self, obs, deterministic=False):
        a, _ = self.actor(obs.unsqueeze(0), deterministic)
        return a.squeeze(0)

    def update(self, batch):
        o, a, r, o2, d = batch
        with torch.no_grad():
            a2, logp_a2 = self.actor(o2)
            q1_t, q2_t = self.critic_targ(o2, a2)
            backup = r + self.gamma * (1 - d) * (torch.min(q1_t, q2_t) - self.alpha * logp_a2)
        q1, q2 = self.critic(o, a)
        loss_q = F.mse_loss(q1, backup) + F.mse_loss(q2, backup)
        self.q_opt.zero_grad()
        loss_q.backward()
        self.q_opt.step()

        for p in self.critic.parameters():
            p.requires_grad = False
        pi, logp_pi = self.actor(o)
        q_pi = torch.min(*self.critic(o, pi))
        loss_pi = (self.alpha * logp_pi - q_pi).mean()
        self.pi_opt.zero_grad()
        loss_pi.backward()
        self.pi_opt.step()
        for p in self.critic.parameters():
            p.requires_grad = True

        loss_alpha = -(self.log_alpha * (logp_pi.detach() + self.target_entropy)).mean()
        self.a_opt.zero_grad()
        loss_alpha.backward()
        self.a_opt.step()
        self.alpha = self.log_alpha.exp().item()

        with torch.no_grad():
            for p, p_targ in zip(self.critic.parameters(), self.critic_targ.parameters()):
                p_targ.mul_(self.polyak)
                p_targ.add_((1 - self.polyak) * p)  # ok

        return dict(loss_q=loss_q, q_vals=q1.mean(), loss_pi=loss_pi.item(),
                    loss_alpha=loss_alpha.item(), logp=logp_pi.detach().mean())


def env_step(o, a, g):
    o2 = (o + 0.1 * a.mean() + 0.01 * torch.randn(o.shape, generator=g)).clamp(-3, 3)
    return o2, float(-o2.pow(2).sum()), float(o2.abs().max() > 2.5)


def main(total_steps=300, start_steps=50, update_after=60, update_every=20, steps_per_epoch=100):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    obs_dim, act_dim = 3, 1
    agent = SAC(obs_dim, act_dim)
    replay = ReplayBuffer(obs_dim, act_dim, size=1000)
    logger = EpochLogger()
    o = torch.zeros(obs_dim)
    for t in range(total_steps):
        a = agent.act(o) if t > start_steps else torch.rand(act_dim, generator=g) * 2 - 1
        o2, r, d = env_step(o, a, g)
        replay.store(o, a, r, o2, d)  # ok
        o = torch.zeros(obs_dim) if d else o2

        if t >= update_after and t % update_every == 0:
            for _ in range(update_every):
                info = agent.update(replay.sample_batch(32))
                logger.store(LossQ=info["loss_q"], QVals=info["q_vals"])  # expect: TEN501
                logger.store(LossPi=info["loss_pi"], LossAlpha=info["loss_alpha"], LogPi=info["logp"])  # ok

        if (t + 1) % steps_per_epoch == 0 and logger.epoch_dict:
            print(f"--- epoch {(t + 1) // steps_per_epoch}")
            for key in ("LossQ", "QVals", "LossPi", "LossAlpha", "LogPi"):
                logger.log_tabular(key)
            logger.dump_tabular()


if __name__ == "__main__":
    main()
