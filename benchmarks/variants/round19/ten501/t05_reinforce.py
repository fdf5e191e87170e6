"""REINFORCE on a toy bandit-like chain environment (pytorch/examples style)."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ToyEnv:
    def __init__(self, n=4):
        self.n = n
        self.g = torch.Generator().manual_seed(1)

    def reset(self):
        self.t = 0
        return torch.randn(self.n, generator=self.g)

    def step(self, action):
        self.t += 1
        reward = 1.0 if action == self.t % 2 else 0.0
        return torch.randn(self.n, generator=self.g), reward, self.t >= 5


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.saved_log_probs = []
        self.rewards = []
        self.all_log_probs = []
        self.all_entropies = []

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=-1)


def select_action(policy, state):
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))  # ok
    policy.all_log_probs.append(m.log_prob(action))  # expect: TEN501
    policy.all_entropies.append(m.entropy().item())  # ok
    return action.item()


def finish_episode(policy, opt, gamma=0.99):
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_loss = [-lp * R for lp, R in zip(policy.saved_log_probs, returns)]
    opt.zero_grad()
    loss = torch.stack(policy_loss).sum()
    loss.backward()
    opt.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    env, policy = ToyEnv(), Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    episode_losses, episode_returns, loss_values = [], [], []
    for i_episode in range(4):
        state, ep_reward = env.reset(), 0
        for t in range(1, 100):
            action = select_action(policy, state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)  # ok
            ep_reward += reward
            if done:
                break
        loss = finish_episode(policy, opt)
        episode_losses.append(loss)  # expect: TEN501
        loss_values.append(loss.item())  # ok
        episode_returns.append(ep_reward)  # ok
    print(len(policy.all_log_probs), sum(episode_returns), float(sum(episode_losses)), loss_values[-1],
          sum(policy.all_entropies))


if __name__ == "__main__":
    main()
