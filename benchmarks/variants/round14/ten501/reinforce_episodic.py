"""REINFORCE with a running-return baseline on a corridor environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class CorridorEnv:
    def __init__(self, length=5):
        self.length = length

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.length)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = min(self.pos + 1, self.length - 1) if action == 1 else max(self.pos - 1, 0)
        done = self.pos == self.length - 1
        return self._obs(), (1.0 if done else -0.1), done


class Policy(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 16), nn.ReLU(), nn.Linear(16, n_act))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, obs):
        return Categorical(logits=self.net(obs))


def finish_episode(policy, optimizer, baseline, gamma=0.95):
    R, returns = 0.0, []
    for r in reversed(policy.rewards):
        R = r + gamma * R
        returns.insert(0, R)  # ok
    returns = torch.tensor(returns)
    advantages = returns - baseline
    loss = -(torch.stack(policy.saved_log_probs) * advantages).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss.item(), returns[0].item()


def main(episodes=10, max_t=30):
    torch.manual_seed(0)
    env, policy = CorridorEnv(), Policy(5, 2)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    baseline, running_reward = 0.0, 0.0
    ep_lengths, loss_log = [], []
    for episode in range(episodes):
        obs = env.reset()
        for t in range(max_t):
            dist = policy(obs)
            action = dist.sample()
            policy.saved_log_probs.append(dist.log_prob(action))  # ok
            obs, reward, done = env.step(action.item())
            policy.rewards.append(reward)  # ok
            if done:
                break
        ep_return = sum(policy.rewards)
        running_reward = 0.9 * running_reward + 0.1 * ep_return  # ok
        loss_value, g0 = finish_episode(policy, optimizer, baseline)
        baseline = 0.8 * baseline + 0.2 * g0  # ok
        loss_log.append(loss_value)  # ok
        ep_lengths.append(t + 1)  # ok
    print("episode lengths", ep_lengths)
    print(f"running reward {running_reward:.3f}, last loss {loss_log[-1]:.3f}")


if __name__ == "__main__":
    main()
