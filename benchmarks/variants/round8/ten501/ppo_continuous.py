import argparse
from collections import defaultdict

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal


def mlp(in_dim, out_dim, hidden=64):
    return nn.Sequential(
        nn.Linear(in_dim, hidden), nn.Tanh(),
        nn.Linear(hidden, hidden), nn.Tanh(),
        nn.Linear(hidden, out_dim),
    )


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.mu = mlp(obs_dim, act_dim)
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def forward(self, obs):
        return Normal(self.mu(obs), self.log_std.exp())


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def clear(self):
        self.obs, self.actions, self.logprobs = [], [], []
        self.values, self.rewards, self.dones = [], [], []

    def add(self, obs, action, logprob, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.logprobs.append(logprob)
        self.values.append(value)
        self.rewards.append(reward)
        self.dones.append(done)

    def __len__(self):
        return len(self.rewards)


class PPO:
    def __init__(self, env, n_steps=2048, epochs=10, minibatch=64, gamma=0.99, lam=0.95,
                 clip_eps=0.2, vf_coef=0.5, ent_coef=0.0, lr=3e-4, device="cpu"):
        self.env = env
        obs_dim = env.observation_space.shape[0]
        act_dim = env.action_space.shape[0]
        self.actor = Actor(obs_dim, act_dim).to(device)
        self.critic = mlp(obs_dim, 1).to(device)
        self.optimizer = torch.optim.Adam(list(self.actor.parameters()) + list(self.critic.parameters()), lr=lr, eps=1e-5)
        self.buffer = RolloutBuffer()
        self.n_steps, self.epochs, self.minibatch = n_steps, epochs, minibatch
        self.gamma, self.lam, self.clip_eps = gamma, lam, clip_eps
        self.vf_coef, self.ent_coef = vf_coef, ent_coef
        self.device = device
        self.obs, _ = env.reset(seed=0)
        self.episode_return = 0.0
        self.completed_returns = []

    def collect_rollout(self):
        self.buffer.clear()
        for _ in range(self.n_steps):
            obs_t = torch.as_tensor(self.obs, dtype=torch.float32, device=self.device)
            dist = self.actor(obs_t)
            action = dist.sample()
            logprob = dist.log_prob(action).sum(-1)
            value = self.critic(obs_t).squeeze(-1)

            clipped = np.clip(action.cpu().numpy(), self.env.action_space.low, self.env.action_space.high)
            next_obs, reward, terminated, truncated, _ = self.env.step(clipped)
            done = terminated or truncated
            self.buffer.add(obs_t, action, logprob, value, float(reward), float(terminated))  # expect: TEN501
            self.episode_return += reward  # ok
            if done:
                self.completed_returns.append(self.episode_return)
                self.episode_return = 0.0
                next_obs, _ = self.env.reset()
            self.obs = next_obs

    def compute_gae(self):
        values = torch.stack(self.buffer.values).detach()
        rewards = torch.tensor(self.buffer.rewards, device=self.device)
        dones = torch.tensor(self.buffer.dones, device=self.device)
        with torch.no_grad():
            last_value = self.critic(torch.as_tensor(self.obs, dtype=torch.float32, device=self.device)).squeeze(-1)
        advantages = torch.zeros_like(rewards)
        gae = 0.0
        for t in reversed(range(len(rewards))):
            next_v = last_value if t == len(rewards) - 1 else values[t + 1]
            delta = rewards[t] + self.gamma * next_v * (1 - dones[t]) - values[t]
            gae = delta + self.gamma * self.lam * (1 - dones[t]) * gae
            advantages[t] = gae
        return advantages, advantages + values

    def update(self):
        advantages, returns = self.compute_gae()
        obs = torch.stack(self.buffer.obs)
        actions = torch.stack(self.buffer.actions)
        old_logprobs = torch.stack(self.buffer.logprobs).detach()
        n = obs.size(0)
        stats = defaultdict(list)
        clipfracs = []
        kl_sum, n_updates = 0.0, 0
        for _ in range(self.epochs):
            perm = torch.randperm(n)
            for start in range(0, n, self.minibatch):
                idx = perm[start:start + self.minibatch]
                dist = self.actor(obs[idx])
                new_logprob = dist.log_prob(actions[idx]).sum(-1)
                log_ratio = new_logprob - old_logprobs[idx]
                ratio = log_ratio.exp()
                adv = advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)

                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps)).mean()
                v_loss = 0.5 * (self.critic(obs[idx]).squeeze(-1) - returns[idx]).pow(2).mean()
                entropy = dist.entropy().sum(-1).mean()
                loss = pg_loss + self.vf_coef * v_loss - self.ent_coef * entropy

                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(list(self.actor.parameters()) + list(self.critic.parameters()), 0.5)
                self.optimizer.step()

                with torch.no_grad():
                    approx_kl = ((ratio - 1) - log_ratio).mean()
                kl_sum += approx_kl  # ok
                n_updates += 1
                clipfracs.append(((ratio - 1.0).abs() > self.clip_eps).float().mean().item())  # ok
                stats["policy_loss"].append(pg_loss.item())  # ok
                stats["value_loss"].append(v_loss.item())  # ok
        return {
            "approx_kl": float(kl_sum) / n_updates,
            "clipfrac": float(np.mean(clipfracs)),
            **{k: float(np.mean(v)) for k, v in stats.items()},
        }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--env", default="Pendulum-v1")
    parser.add_argument("--total-steps", type=int, default=1_000_000)
    args = parser.parse_args()

    env = gym.make(args.env)
    agent = PPO(env)
    n_iters = args.total_steps // agent.n_steps
    for it in range(n_iters):
        agent.collect_rollout()
        info = agent.update()
        recent = agent.completed_returns[-10:]
        mean_ret = np.mean(recent) if recent else float("nan")
        print(f"iter {it} return {mean_ret:.1f} kl {info['approx_kl']:.4f} clipfrac {info['clipfrac']:.3f}")


if __name__ == "__main__":
    main()
