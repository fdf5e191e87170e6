import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())


def collect(env, ac, horizon=2048):
    obs_buf, act_buf, logp_buf, rew_buf, val_buf = [], [], [], [], []
    obs, _ = env.reset()
    for _ in range(horizon):
        o = torch.as_tensor(obs, dtype=torch.float32)
        with torch.no_grad():
            d = ac.dist(o)
            a = d.sample()
            logp = d.log_prob(a).sum()
            v = ac.v(o).squeeze()
        obs_buf.append(o)  # ok
        act_buf.append(a)  # ok
        logp_buf.append(logp)  # ok
        val_buf.append(v)  # ok
        obs, r, term, trunc, _ = env.step(a.numpy())
        rew_buf.append(float(r))  # ok
        if term or trunc:
            obs, _ = env.reset()
    return (torch.stack(obs_buf), torch.stack(act_buf), torch.stack(logp_buf),
            torch.tensor(rew_buf), torch.stack(val_buf))


def ppo_update(ac, opt, batch, clip=0.2, epochs=10, mb=64):
    obs, act, old_logp, adv, ret = batch
    ratio_trace = []
    approx_kl = []
    for _ in range(epochs):
        for idx in torch.randperm(obs.size(0)).split(mb):
            d = ac.dist(obs[idx])
            logp = d.log_prob(act[idx]).sum(-1)
            ratio = torch.exp(logp - old_logp[idx])
            pg = -torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx]).mean()
            vf = (ac.v(obs[idx]).squeeze(-1) - ret[idx]).pow(2).mean()
            loss = pg + 0.5 * vf - 0.0 * d.entropy().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            ratio_trace.append(ratio.mean())  # expect: TEN501
            approx_kl.append((old_logp[idx] - logp).mean().item())  # ok
    return ratio_trace, approx_kl
