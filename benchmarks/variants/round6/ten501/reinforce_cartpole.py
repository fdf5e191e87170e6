"""REINFORCE in the style of pytorch/examples, on a toy balancing task."""
import argparse
from collections import deque
from itertools import count

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

parser = argparse.ArgumentParser(description="PyTorch REINFORCE example")
parser.add_argument("--gamma", type=float, default=0.99)
parser.add_argument("--seed", type=int, default=543)
parser.add_argument("--log-interval", type=int, default=5)
parser.add_argument("--max-episodes", type=int, default=20)
args = parser.parse_args([])


class ToyPole:
    def __init__(self, seed):
        self.g = torch.Generator().manual_seed(seed)
        self.state = torch.zeros(4)

    def reset(self):
        self.state = 0.05 * torch.randn(4, generator=self.g)
        return self.state.clone()

    def step(self, action):
        push = 0.02 if action == 1 else -0.02
        self.state = self.state + torch.tensor([self.state[1], push, self.state[3], -push])
        self.state += 0.01 * torch.randn(4, generator=self.g)
        done = bool(self.state.abs().max() > 0.5)
        return self.state.clone(), 1.0, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 64)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(64, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        return F.softmax(self.affine2(x), dim=1)


env = ToyPole(args.seed)
torch.manual_seed(args.seed)
policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = 1e-6


def select_action(state):
    state = state.float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))  # ok
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = deque()
    for r in policy.rewards[::-1]:
        R = r + args.gamma * R
        returns.appendleft(R)
    returns = torch.tensor(list(returns))
    returns = (returns - returns.mean()) / (returns.std() + eps) if len(returns) > 1 else returns
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)  # ok
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


def main():
    running_reward = 10
    loss_trace = []
    for i_episode in count(1):
        state, ep_reward = env.reset(), 0
        for t in range(1, 200):
            action = select_action(state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)
            ep_reward += reward
            if done:
                break

        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        episode_loss = finish_episode()
        loss_trace.append(episode_loss)  # expect: TEN501
        if i_episode % args.log_interval == 0:
            recent = torch.stack(loss_trace[-args.log_interval:]).mean().item()
            print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\t"
                  f"Average reward: {running_reward:.2f}\tloss: {recent:.3f}")
        if i_episode >= args.max_episodes:
            break


if __name__ == "__main__":
    main()
