"""REINFORCE on a toy bandit-chain environment (pytorch/examples style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
gamma = 0.99


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return F.softmax(self.affine2(F.relu(self.affine1(x))), dim=-1)


class ToyEnv:
    def reset(self):
        self.t = 0
        return torch.randn(4)

    def step(self, action):
        self.t += 1
        return torch.randn(4), float(action == 1), self.t >= 5


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
env = ToyEnv()
eps = 1e-6


def select_action(state):
    probs = policy(state.unsqueeze(0))
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))  # ok
    return action.item(), m.entropy()


def finish_episode():
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    policy_loss = torch.cat([-lp * R for lp, R in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


running_reward = 0.0
episode_losses = []
episode_losses_ok = []
all_entropies = []
for i_episode in range(5):
    state, ep_reward = env.reset(), 0
    done = False
    while not done:
        action, ent = select_action(state)
        all_entropies.append(ent)  # expect: TEN501
        state, reward, done = env.step(action)
        policy.rewards.append(reward)  # ok
        ep_reward += reward
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward  # ok
    loss = finish_episode()
    episode_losses.append(loss)  # expect: TEN501
    episode_losses_ok.append(loss.item())  # ok
print(running_reward, len(episode_losses), len(all_entropies))
