"""Monte-Carlo policy gradient (REINFORCE with a learned baseline) on CartPole."""
import argparse

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class PolicyWithBaseline(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


class Agent:
    def __init__(self, net, lr=1e-2, gamma=0.99):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)
        self.gamma = gamma
        self.ep_log_probs = []
        self.ep_values = []
        self.ep_rewards = []

    def act(self, obs):
        logits, value = self.net(torch.from_numpy(obs).float())
        dist = Categorical(logits=logits)
        action = dist.sample()
        self.ep_log_probs.append(dist.log_prob(action))  # ok
        self.ep_values.append(value)  # ok
        return action.item()

    def discounted_returns(self):
        returns, g = [], 0.0
        for r in reversed(self.ep_rewards):
            g = r + self.gamma * g
            returns.insert(0, g)
        returns = torch.tensor(returns)
        return (returns - returns.mean()) / (returns.std() + 1e-8)

    def finish_episode(self):
        returns = self.discounted_returns()
        log_probs = torch.stack(self.ep_log_probs)
        values = torch.stack(self.ep_values)
        advantage = returns - values.detach()
        policy_loss = -(log_probs * advantage).sum()
        value_loss = F.smooth_l1_loss(values, returns, reduction="sum")
        loss = policy_loss + value_loss  # ok

        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

        del self.ep_log_probs[:]
        del self.ep_values[:]
        del self.ep_rewards[:]
        return policy_loss.item(), value_loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--seed", type=int, default=543)
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args()

    env = gym.make("CartPole-v1")
    torch.manual_seed(args.seed)
    agent = Agent(PolicyWithBaseline(), gamma=args.gamma)

    running_reward = 10.0
    pl_history, vl_history = [], []
    for episode in range(1, 5000):
        obs, _ = env.reset(seed=args.seed + episode)
        ep_reward = 0.0
        for t in range(1, 10_000):
            action = agent.act(obs)
            obs, reward, terminated, truncated, _ = env.step(action)
            agent.ep_rewards.append(reward)  # ok
            ep_reward += reward  # ok
            if terminated or truncated:
                break

        running_reward = 0.05 * ep_reward + 0.95 * running_reward  # ok
        pl, vl = agent.finish_episode()
        pl_history.append(pl)  # ok
        vl_history.append(vl)  # ok
        if episode % args.log_interval == 0:
            print(f"Episode {episode}\tLast reward: {ep_reward:.1f}\tAverage reward: {running_reward:.2f}"
                  f"\tpolicy loss {np.mean(pl_history[-args.log_interval:]):.3f}")
        if running_reward > env.spec.reward_threshold:
            print(f"Solved! Running reward is now {running_reward:.1f} after {episode} episodes")
            torch.save(agent.net.state_dict(), "reinforce_cartpole.pt")
            break


if __name__ == "__main__":
    main()
