import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.Tanh(), nn.Linear(128, n_actions))

    def forward(self, obs):
        return Categorical(logits=self.net(obs))


def discounted(rewards, gamma):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.insert(0, g)  # ok
    return torch.tensor(out)


def run_episode(env, policy):
    obs, _ = env.reset()
    log_probs, rewards, entropies = [], [], []
    done = False
    while not done:
        dist = policy(torch.as_tensor(obs, dtype=torch.float32))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))  # ok
        entropies.append(dist.entropy())  # ok
        obs, reward, terminated, truncated, _ = env.step(action.item())
        rewards.append(reward)  # ok
        done = terminated or truncated
    return log_probs, rewards, entropies


def train(env, episodes=500, gamma=0.99, beta=0.01):
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    episode_returns = []
    entropy_trace = []
    for ep in range(episodes):
        log_probs, rewards, entropies = run_episode(env, policy)
        returns = discounted(rewards, gamma)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        ent = torch.stack(entropies).mean()
        loss = -(torch.stack(log_probs) * returns).sum() - beta * ent
        opt.zero_grad()
        loss.backward()
        opt.step()

        episode_returns.append(sum(rewards))  # ok
        entropy_trace.append(ent)  # expect: TEN501
        if ep % 50 == 0:
            recent = episode_returns[-50:]
            print(ep, sum(recent) / len(recent))
    return policy, episode_returns, entropy_trace
