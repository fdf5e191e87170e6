"""REINFORCE (pytorch/examples style) on a tiny self-contained CartPole."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


class CartPole:
    """Classic cart-pole dynamics (same equations as gym's CartPole-v1)."""

    def __init__(self, max_steps=60):
        self.max_steps = max_steps

    def reset(self):
        self.state = [random.uniform(-0.05, 0.05) for _ in range(4)]
        self.t = 0
        return list(self.state)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        costheta, sintheta = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sintheta) / 1.1
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta ** 2 / 1.1))
        xacc = temp - 0.05 * thetaacc * costheta / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc
        self.state = [x, x_dot, theta, theta_dot]
        self.t += 1
        done = abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360 or self.t >= self.max_steps
        return list(self.state), 1.0, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 64)
        self.dropout = nn.Dropout(p=0.3)
        self.affine2 = nn.Linear(64, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.dropout(F.relu(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = 1e-6
gamma = 0.99

episode_losses = []
entropy_trace = []
entropy_log = []


def select_action(state):
    state = torch.tensor(state, dtype=torch.float32).unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))  # either
    entropy_trace.append(m.entropy())  # expect: TEN501
    entropy_log.append(m.entropy().item())  # ok
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)  # either
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    episode_losses.append(policy_loss)  # expect: TEN501
    del policy.rewards[:]
    del policy.saved_log_probs[:]


def main():
    env = CartPole()
    running_reward = 10
    for i_episode in range(1, 13):
        state, ep_reward = env.reset(), 0
        for t in range(1, 200):
            action = select_action(state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)  # ok
            ep_reward += reward
            if done:
                break
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward  # ok
        finish_episode()
        if i_episode % 4 == 0:
            print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}")
    print("mean policy loss:", torch.stack(episode_losses).mean().item())
    print("mean entropy:", torch.cat(entropy_trace).mean().item(), sum(entropy_log) / len(entropy_log))


if __name__ == "__main__":
    main()
