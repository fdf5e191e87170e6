"""REINFORCE with a batch of episodes per policy update (CartPole / LunarLander)."""
import argparse

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions import Categorical


class PolicyNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


class Agent:
    def __init__(self, obs_dim, n_actions, lr=1e-2, gamma=0.99):
        self.policy = PolicyNet(obs_dim, n_actions)
        self.optimizer = optim.Adam(self.policy.parameters(), lr=lr)
        self.gamma = gamma
        self.log_probs = []
        self.entropies = []
        self.returns = []

    def act(self, obs):
        obs = torch.as_tensor(obs, dtype=torch.float32)
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        self.entropies.append(dist.entropy())
        return action.item()

    def finish_episode(self, rewards):
        R, rets = 0.0, []
        for r in reversed(rewards):
            R = r + self.gamma * R
            rets.insert(0, R)
        self.returns.extend(rets)

    def update(self, entropy_coef=0.01):
        returns = torch.tensor(self.returns, dtype=torch.float32)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        log_probs = torch.stack(self.log_probs)
        entropy = torch.stack(self.entropies).mean()
        loss = -(log_probs * returns).sum() / len(returns) - entropy_coef * entropy
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.log_probs.clear()
        self.entropies.clear()
        self.returns.clear()
        return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", default="CartPole-v1")
    ap.add_argument("--episodes-per-update", type=int, default=8)
    ap.add_argument("--updates", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    env = gym.make(args.env)
    torch.manual_seed(args.seed)
    agent = Agent(env.observation_space.shape[0], env.action_space.n)
    running_reward = None
    for update in range(args.updates):
        batch_rewards = []
        for ep in range(args.episodes_per_update):
            obs, _ = env.reset(seed=args.seed + update * 100 + ep)
            rewards, done = [], False
            while not done:
                obs, r, terminated, truncated, _ = env.step(agent.act(obs))
                rewards.append(r)
                done = terminated or truncated
            agent.finish_episode(rewards)
            batch_rewards.append(sum(rewards))
        loss = agent.update()
        mean_r = float(np.mean(batch_rewards))
        running_reward = mean_r if running_reward is None else 0.9 * running_reward + 0.1 * mean_r
        if update % 10 == 0:
            print(f"update {update:4d} loss {loss:+.3f} reward {mean_r:7.1f} running {running_reward:7.1f}")
    torch.save(agent.policy.state_dict(), f"reinforce_{args.env}.pt")


if __name__ == "__main__":
    main()
