"""Vanilla REINFORCE with a moving-average baseline on CartPole."""
import argparse
from itertools import count

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

parser = argparse.ArgumentParser(description="PyTorch REINFORCE example")
parser.add_argument("--gamma", type=float, default=0.99, metavar="G")
parser.add_argument("--seed", type=int, default=543, metavar="N")
parser.add_argument("--log-interval", type=int, default=10, metavar="N")
parser.add_argument("--max-steps", type=int, default=10000)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 128)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(128, 2)

    def forward(self, x):
        x = self.dropout(F.relu(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


def run_episode(env, policy, max_steps):
    state = env.reset()
    log_probs, rewards = [], []
    for _ in range(max_steps):
        state_t = torch.from_numpy(state).float().unsqueeze(0)
        probs = policy(state_t)
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))  # ok
        state, reward, done, _ = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    return log_probs, rewards


def finish_episode(optimizer, log_probs, rewards, gamma, eps=np.finfo(np.float32).eps.item()):
    R = 0.0
    returns = []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    policy_loss = torch.cat([-lp * Ret for lp, Ret in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    return policy_loss


def main():
    args = parser.parse_args()
    env = gym.make("CartPole-v1")
    env.seed(args.seed)
    torch.manual_seed(args.seed)

    policy = Policy()
    optimizer = optim.Adam(policy.parameters(), lr=1e-2)

    running_reward = 10.0
    loss_curve = []
    for i_episode in count(1):
        log_probs, rewards = run_episode(env, policy, args.max_steps)
        ep_reward = sum(rewards)
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward  # ok
        policy_loss = finish_episode(optimizer, log_probs, rewards, args.gamma)
        loss_curve.append(policy_loss)  # expect: TEN501
        if i_episode % args.log_interval == 0:
            recent = torch.stack(loss_curve[-args.log_interval:]).mean().item()
            print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\t"
                  f"Average reward: {running_reward:.2f}\tloss {recent:.3f}")
        if running_reward > env.spec.reward_threshold:
            print(f"Solved! Running reward is now {running_reward} and "
                  f"the last episode runs to {len(rewards)} time steps!")
            break


if __name__ == "__main__":
    main()
