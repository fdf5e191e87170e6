import argparse
from collections import namedtuple
from itertools import count

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

parser = argparse.ArgumentParser(description="actor-critic example")
parser.add_argument("--gamma", type=float, default=0.99)
parser.add_argument("--seed", type=int, default=543)
parser.add_argument("--log-interval", type=int, default=10)
args = parser.parse_args()

env = gym.make("CartPole-v1")
env.reset(seed=args.seed)
torch.manual_seed(args.seed)

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
eps = np.finfo(np.float32).eps.item()


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 128)
        self.action_head = nn.Linear(128, 2)
        self.value_head = nn.Linear(128, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values


model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)


def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))  # ok
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + args.gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)

    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)  # ok
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))  # ok

    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()

    del model.rewards[:]
    del model.saved_actions[:]
    return loss


def main():
    running_reward = 10
    loss_log = []
    for i_episode in count(1):
        state, _ = env.reset()
        ep_reward = 0
        for t in range(1, 10000):
            action = select_action(state)
            state, reward, done, _, _ = env.step(action)
            model.rewards.append(reward)
            ep_reward += reward
            if done:
                break

        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        loss = finish_episode()
        loss_log.append(loss)  # expect: TEN501
        if i_episode % args.log_interval == 0:
            recent = torch.stack(loss_log[-args.log_interval:]).mean().item()
            print("Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss {:.3f}".format(
                i_episode, ep_reward, running_reward, recent))
        if running_reward > env.spec.reward_threshold:
            print("Solved! Running reward is now {} and the last episode runs to {} time steps!".format(
                running_reward, t))
            break


if __name__ == "__main__":
    main()
