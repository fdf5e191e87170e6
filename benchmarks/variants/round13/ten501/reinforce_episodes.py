"""REINFORCE with a moving baseline on a short corridor task."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Corridor:
    """Walk right to reach the goal; every step costs a little."""

    def __init__(self, length=5, max_steps=6):
        self.length, self.max_steps = length, max_steps

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def _obs(self):
        return torch.tensor([self.pos / self.length, self.t / self.max_steps, 1.0, 0.0])

    def step(self, action):
        self.t += 1
        self.pos = min(self.length, max(0, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.length or self.t >= self.max_steps
        reward = 1.0 if self.pos == self.length else -0.05
        return self._obs(), reward, done


class Reinforce:
    def __init__(self, gamma=0.99, lr=1e-2):
        self.policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.gamma = gamma
        self.saved_log_probs, self.entropies, self.rewards = [], [], []
        self.running_reward, self.baseline = 0.0, 0.0
        self.returns_log, self.loss_log = [], []

    def select_action(self, obs):
        dist = Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.saved_log_probs.append(dist.log_prob(action))  # ok
        self.entropies.append(dist.entropy())  # ok
        return action.item()

    def finish_episode(self):
        R, returns = 0.0, []
        for r in reversed(self.rewards):
            R = r + self.gamma * R
            returns.insert(0, R)  # ok
        returns = torch.tensor(returns)
        adv = returns - self.baseline
        policy_loss = torch.stack([-lp * a for lp, a in zip(self.saved_log_probs, adv)]).sum()
        loss = policy_loss - 0.01 * torch.stack(self.entropies).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.baseline = 0.9 * self.baseline + 0.1 * returns.mean().item()  # ok
        self.loss_log.append(loss.item())  # ok
        ep_ret = sum(self.rewards)
        self.returns_log.append(ep_ret)  # ok
        self.running_reward = 0.05 * ep_ret + 0.95 * self.running_reward  # ok
        del self.saved_log_probs[:]
        self.entropies = []
        self.rewards.clear()


def main(episodes=4):
    torch.manual_seed(0)
    env, agent = Corridor(), Reinforce()
    for ep in range(episodes):
        obs, done = env.reset(), False
        while not done:
            obs, reward, done = env.step(agent.select_action(obs))
            agent.rewards.append(reward)  # ok
        agent.finish_episode()
        print(f"episode {ep} return {agent.returns_log[-1]:.2f} running {agent.running_reward:.3f}")


if __name__ == "__main__":
    main()
