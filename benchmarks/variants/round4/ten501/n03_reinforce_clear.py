"""Vanilla REINFORCE; per-episode buffers are consumed by one backward and then cleared."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Corridor:
    """Walk right to reach the goal; -0.01 per step, +1 at the goal."""

    def __init__(self, length=8, max_steps=40):
        self.length, self.max_steps = length, max_steps

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.length)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.length - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        done = self.pos == self.length - 1 or self.t >= self.max_steps
        return self._obs(), (1.0 if self.pos == self.length - 1 else -0.01), done


class Policy(nn.Module):
    def __init__(self, n_obs, n_act=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return Categorical(logits=self.net(x))


def finish_episode(policy, optimizer, gamma=0.99):
    R, returns = 0.0, []
    for r in reversed(policy.rewards):
        R = r + gamma * R
        returns.insert(0, R)  # ok
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.stack([-lp * g for lp, g in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    del policy.saved_log_probs[:]
    del policy.rewards[:]
    return loss.item()


def main(episodes=300):
    env = Corridor()
    policy = Policy(env.length)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    episode_rewards = []
    for ep in range(episodes):
        obs, done, ep_r = env.reset(), False, 0.0
        while not done:
            dist = policy(obs)
            action = dist.sample()
            policy.saved_log_probs.append(dist.log_prob(action))  # ok
            obs, r, done = env.step(action.item())
            policy.rewards.append(r)  # ok
            ep_r += r
        loss_val = finish_episode(policy, optimizer)
        episode_rewards.append(ep_r)  # ok
        if ep % 50 == 0:
            print(f"episode {ep}: reward {ep_r:.2f} loss {loss_val:.3f}")


if __name__ == "__main__":
    main()
