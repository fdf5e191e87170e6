"""REINFORCE in the style of pytorch/examples, with a toy environment."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ToyEnv:
    """4-dim observation, 2 actions, reward 1 when action matches sign of obs[0]."""

    def __init__(self, horizon=8):
        self.horizon = horizon

    def reset(self):
        self.t = 0
        self.state = torch.randn(4)
        return self.state

    def step(self, action):
        reward = 1.0 if (self.state[0] > 0) == (action == 1) else 0.0
        self.t += 1
        self.state = torch.randn(4)
        return self.state, reward, self.t >= self.horizon


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return F.softmax(self.affine2(F.relu(self.affine1(x))), dim=-1)


def select_action(policy, state):
    probs = policy(state.unsqueeze(0))
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))  # ok
    return action.item()


def finish_episode(policy, optimizer, gamma=0.99):
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)  # ok
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_loss = []
    for log_prob, Rt in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * Rt)  # ok
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


def main():
    torch.manual_seed(0)
    env, policy = ToyEnv(), Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    running_reward = 0.0
    episode_losses = []
    for i_episode in range(6):
        state, ep_reward = env.reset(), 0.0
        done = False
        while not done:
            action = select_action(policy, state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)  # ok
            ep_reward += reward  # ok
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward  # ok
        episode_losses.append(finish_episode(policy, optimizer))  # expect: TEN501
    print(f"running reward {running_reward:.2f}, {len(episode_losses)} episodes")


if __name__ == "__main__":
    main()
