"""Minimal single-env PPO-clip for discrete control."""
import argparse

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

from buffer import RolloutBuffer


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                nn.Linear(hidden, n_actions))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                               nn.Linear(hidden, 1))

    def forward(self, obs):
        return Categorical(logits=self.pi(obs)), self.v(obs)


def collect_rollout(env, ac, buffer, obs, n_steps, ep_returns, ep_ret):
    for _ in range(n_steps):
        obs_t = torch.as_tensor(obs, dtype=torch.float32)
        dist, value = ac(obs_t)
        action = dist.sample()
        logp = dist.log_prob(action)
        obs, reward, terminated, truncated, _ = env.step(action.item())
        done = terminated or truncated
        buffer.add(obs_t, action, logp, value, reward, done)
        ep_ret += reward
        if done:
            ep_returns.append(ep_ret)
            ep_ret = 0.0
            obs, _ = env.reset()
    _, last_value = ac(torch.as_tensor(obs, dtype=torch.float32))
    return obs, last_value, ep_ret


def ppo_update(ac, optimizer, buffer, last_value, epochs=10, batch_size=64, clip=0.2,
               vf_coef=0.5, ent_coef=0.01):
    data = buffer.get(last_value)
    adv = data["advantages"]
    data["advantages"] = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(epochs):
        for mb in buffer.minibatches(data, batch_size):
            dist, value = ac(mb["obs"])
            logp = dist.log_prob(mb["actions"])
            ratio = torch.exp(logp - mb["logprobs"])
            surr1 = ratio * mb["advantages"]
            surr2 = torch.clamp(ratio, 1 - clip, 1 + clip) * mb["advantages"]
            policy_loss = -torch.min(surr1, surr2).mean()
            value_loss = (mb["returns"] - value.view(-1)).pow(2).mean()
            loss = policy_loss + vf_coef * value_loss - ent_coef * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
            optimizer.step()
    buffer.reset()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", default="CartPole-v1")
    ap.add_argument("--total-steps", type=int, default=200_000)
    ap.add_argument("--n-steps", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=3e-4)
    args = ap.parse_args()

    env = gym.make(args.env)
    ac = ActorCritic(env.observation_space.shape[0], env.action_space.n)
    optimizer = torch.optim.Adam(ac.parameters(), lr=args.lr, eps=1e-5)
    buffer = RolloutBuffer()
    obs, _ = env.reset(seed=0)
    ep_returns, ep_ret = [], 0.0
    for it in range(args.total_steps // args.n_steps):
        obs, last_value, ep_ret = collect_rollout(env, ac, buffer, obs, args.n_steps, ep_returns, ep_ret)
        ppo_update(ac, optimizer, buffer, last_value)
        if ep_returns:
            print(f"iter {it} mean return (last 20) {np.mean(ep_returns[-20:]):.1f}")


if __name__ == "__main__":
    main()
