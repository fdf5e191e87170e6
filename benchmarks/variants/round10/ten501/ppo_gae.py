"""PPO-Clip with generalized advantage estimation for continuous-control Gym tasks."""
import gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                nn.Linear(hidden, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                               nn.Linear(hidden, 1))
        self.log_std = nn.Parameter(-0.5 * torch.ones(act_dim))

    def forward(self, obs):
        mu = self.pi(obs)
        return Normal(mu, self.log_std.exp()), self.v(obs).squeeze(-1)


def collect_rollout(env, agent, obs, n_steps, device):
    obs_buf, act_buf, logp_buf, val_buf, rew_buf, done_buf = [], [], [], [], [], []
    ep_returns, ep_ret = [], 0.0
    for _ in range(n_steps):
        obs_t = torch.as_tensor(obs, dtype=torch.float32, device=device)
        with torch.no_grad():
            dist, value = agent(obs_t)
            action = dist.sample()
            logp = dist.log_prob(action).sum(-1)
        next_obs, reward, done, _ = env.step(action.cpu().numpy())
        obs_buf.append(obs_t)
        act_buf.append(action)
        logp_buf.append(logp)  # ok
        val_buf.append(value)  # ok
        rew_buf.append(reward)
        done_buf.append(done)
        ep_ret += reward
        if done:
            ep_returns.append(ep_ret)
            ep_ret = 0.0
            next_obs = env.reset()
        obs = next_obs
    with torch.no_grad():
        _, last_val = agent(torch.as_tensor(obs, dtype=torch.float32, device=device))
    batch = {
        "obs": torch.stack(obs_buf), "act": torch.stack(act_buf), "logp": torch.stack(logp_buf),
        "val": torch.stack(val_buf), "rew": torch.as_tensor(rew_buf, dtype=torch.float32, device=device),
        "done": torch.as_tensor(done_buf, dtype=torch.float32, device=device),
    }
    return batch, last_val, obs, ep_returns


def compute_gae(batch, last_val, gamma=0.99, lam=0.95):
    rew, val, done = batch["rew"], batch["val"], batch["done"]
    adv = torch.zeros_like(rew)
    gae = 0.0
    next_val = last_val
    for t in reversed(range(len(rew))):
        nonterminal = 1.0 - done[t]
        delta = rew[t] + gamma * next_val * nonterminal - val[t]
        gae = delta + gamma * lam * nonterminal * gae
        adv[t] = gae
        next_val = val[t]
    batch["adv"] = adv
    batch["ret"] = adv + val
    return batch


def ppo_update(agent, optimizer, batch, clip=0.2, epochs=10, mb_size=64, vf_coef=0.5, ent_coef=0.0,
               target_kl=0.015, max_grad_norm=0.5):
    n = batch["obs"].size(0)
    adv = (batch["adv"] - batch["adv"].mean()) / (batch["adv"].std() + 1e-8)
    approx_kl_sum = 0.0
    clip_fracs = []
    n_updates = 0
    for _ in range(epochs):
        perm = torch.randperm(n)
        for start in range(0, n, mb_size):
            idx = perm[start:start + mb_size]
            dist, value = agent(batch["obs"][idx])
            new_logp = dist.log_prob(batch["act"][idx]).sum(-1)
            log_ratio = new_logp - batch["logp"][idx]
            ratio = log_ratio.exp()
            pg_loss = -torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx]).mean()
            v_loss = 0.5 * (value - batch["ret"][idx]).pow(2).mean()
            entropy = dist.entropy().sum(-1).mean()
            loss = pg_loss + vf_coef * v_loss - ent_coef * entropy

            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), max_grad_norm)
            optimizer.step()

            approx_kl_sum += ((ratio - 1) - log_ratio).mean()  # expect: TEN501
            clip_fracs.append(((ratio - 1.0).abs() > clip).float().mean())  # ok
            n_updates += 1
        if approx_kl_sum / n_updates > 1.5 * target_kl:
            break
    return {"approx_kl": float(approx_kl_sum / n_updates),
            "clip_frac": torch.stack(clip_fracs).mean().item()}


def main(env_id="HalfCheetah-v3", total_steps=1_000_000, n_steps=2048, device="cpu"):
    env = gym.make(env_id)
    agent = ActorCritic(env.observation_space.shape[0], env.action_space.shape[0]).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4, eps=1e-5)
    obs = env.reset()
    returns = []
    for it in range(total_steps // n_steps):
        frac = 1.0 - it / (total_steps // n_steps)
        for g in optimizer.param_groups:
            g["lr"] = frac * 3e-4
        batch, last_val, obs, ep_returns = collect_rollout(env, agent, obs, n_steps, device)
        batch = compute_gae(batch, last_val)
        info = ppo_update(agent, optimizer, batch)
        returns.extend(ep_returns)
        if returns:
            print(f"iter {it} return {np.mean(returns[-10:]):.1f} kl {info['approx_kl']:.4f} "
                  f"clipfrac {info['clip_frac']:.3f}")
