"""Rollout storage and GAE."""
import torch


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def clear(self):
        self.obs, self.actions, self.logps, self.values = [], [], [], []
        self.rewards, self.dones = [], []

    def add(self, obs, action, logp, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.logps.append(logp)
        self.values.append(value)
        self.rewards.append(reward)
        self.dones.append(done)

    def compute_gae(self, last_value, gamma=0.99, lam=0.95):
        values = torch.stack(self.values + [last_value])
        rewards = torch.tensor(self.rewards)
        dones = torch.tensor(self.dones, dtype=torch.float32)
        adv = torch.zeros(len(self.rewards))
        gae = 0.0
        for t in reversed(range(len(self.rewards))):
            delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
            gae = delta + gamma * lam * (1 - dones[t]) * gae
            adv[t] = gae  # ok
        returns = adv + values[:-1]
        return (torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.logps),
                adv, returns)
