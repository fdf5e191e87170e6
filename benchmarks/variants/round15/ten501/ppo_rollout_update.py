"""PPO-clip with a rollout buffer filled under no_grad (SB3-like), plus diagnostics."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal


class RolloutBuffer:
    def __init__(self):
        self.reset()

    def reset(self):
        self.obs, self.actions, self.log_probs, self.values, self.rewards = [], [], [], [], []

    def add(self, obs, action, log_prob, value, reward):
        self.obs.append(obs)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)

    def tensors(self):
        return (torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.log_probs),
                torch.stack(self.values).squeeze(-1), torch.tensor(self.rewards))


class Policy(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())

    def act(self, obs):
        d = self.dist(obs)
        a = d.sample()
        return a, d.log_prob(a).sum(-1), self.v(obs)


def ppo_update(policy, opt, buf, logger, clip=0.2, epochs=3):
    obs, actions, old_logp, values, rewards = buf.tensors()
    returns = rewards + 0.9 * torch.cat([values[1:], values[-1:]])
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_losses, clip_fractions, approx_kls = [], [], []
    for _ in range(epochs):
        d = policy.dist(obs)
        logp = d.log_prob(actions).sum(-1)
        ratio = torch.exp(logp - old_logp)
        policy_loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv).mean()
        value_loss = (policy.v(obs).squeeze(-1) - returns).pow(2).mean()
        loss = policy_loss + 0.5 * value_loss - 0.001 * d.entropy().mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        opt.step()
        pg_losses.append(policy_loss.item())  # ok
        clip_fractions.append(torch.mean((torch.abs(ratio - 1) > clip).float()).item())  # ok
        with torch.no_grad():
            log_ratio = logp - old_logp
            approx_kls.append(torch.mean((torch.exp(log_ratio) - 1) - log_ratio))  # ok
        logger["value_loss"].append(value_loss)  # expect: TEN501
    logger["pg_loss"].append(np.mean(pg_losses))  # ok
    logger["clip_fraction"].append(np.mean(clip_fractions))  # ok
    logger["approx_kl"].append(torch.stack(approx_kls).mean())  # ok


def collect(policy, buf, n_steps=12):
    obs = torch.randn(3)
    for _ in range(n_steps):
        with torch.no_grad():
            action, logp, value = policy.act(obs)
        reward = -float((action - obs[0]).abs())
        buf.add(obs, action, logp, value, reward)  # ok
        obs = torch.randn(3)


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
    buf = RolloutBuffer()
    logger = {"value_loss": [], "pg_loss": [], "clip_fraction": [], "approx_kl": []}
    for it in range(3):
        collect(policy, buf)
        ppo_update(policy, opt, buf, logger)
        buf.reset()
    print({k: len(v) for k, v in logger.items()})
