import argparse

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, n_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.shared(obs)
        return self.policy(h), self.value(h).squeeze(-1)


def n_step_returns(next_value, rewards, masks, gamma):
    R = next_value
    returns = []
    for r, m in zip(reversed(rewards), reversed(masks)):
        R = r + gamma * R * m
        returns.insert(0, R)
    return returns


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--env", default="LunarLander-v2")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=5)
    p.add_argument("--updates", type=int, default=200_000)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--log-interval", type=int, default=500)
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(args.env) for _ in range(args.num_envs)])
    envs = gym.wrappers.RecordEpisodeStatistics(envs)
    model = ActorCritic(envs.single_observation_space.shape[0], envs.single_action_space.n).to(device)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)

    obs, _ = envs.reset(seed=0)
    total_entropy = 0.0
    recent_returns = []
    for update in range(1, args.updates + 1):
        log_probs, values, rewards, masks, entropies = [], [], [], [], []
        for _ in range(args.n_steps):
            obs_t = torch.as_tensor(obs, dtype=torch.float32, device=device)
            logits, value = model(obs_t)
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward, terminated, truncated, info = envs.step(action.cpu().numpy())
            done = np.logical_or(terminated, truncated)

            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(torch.as_tensor(reward, dtype=torch.float32, device=device))  # ok
            masks.append(torch.as_tensor(1.0 - done, dtype=torch.float32, device=device))  # ok
            if "episode" in info:
                recent_returns.extend(info["episode"]["r"][info["_episode"]].tolist())  # ok

        with torch.no_grad():
            _, next_value = model(torch.as_tensor(obs, dtype=torch.float32, device=device))
        returns = torch.stack(n_step_returns(next_value, rewards, masks, args.gamma))
        log_probs = torch.stack(log_probs)
        values = torch.stack(values)
        advantages = returns - values
        entropy = torch.stack(entropies).mean()

        policy_loss = -(log_probs * advantages.detach()).mean()
        value_loss = advantages.pow(2).mean()
        loss = policy_loss + args.value_coef * value_loss - args.ent_coef * entropy

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()

        total_entropy += entropy  # expect: TEN501
        if update % args.log_interval == 0:
            mean_ret = np.mean(recent_returns[-100:]) if recent_returns else float("nan")
            print(f"update {update:6d} | return {mean_ret:8.2f} | entropy {total_entropy / args.log_interval:.3f} "
                  f"| value loss {value_loss.item():.3f}")
            total_entropy = 0.0

    torch.save(model.state_dict(), "a2c_lunar.pt")


if __name__ == "__main__":
    main()
