"""Policy gradient with a learned baseline; per-episode buffers are consumed and cleared."""
from collections import Counter, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Bandit2Step:
    """Two-step decision problem: the second arm pays off only after the right first move."""

    def reset(self):
        self.t, self.first = 0, None
        return torch.tensor([1.0, 0.0, 0.0])

    def step(self, a):
        self.t += 1
        if self.t == 1:
            self.first = a
            return torch.tensor([0.0, 1.0, float(a)]), 0.0, False
        reward = 1.0 if (self.first == 1 and a == 2) else (0.3 if a == 0 else 0.0)
        return torch.tensor([0.0, 0.0, 1.0]), reward, True


class Learner:
    def __init__(self):
        self.policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 3))
        self.baseline = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.opt = torch.optim.Adam(list(self.policy.parameters()) + list(self.baseline.parameters()), lr=2e-2)
        self.logps, self.states, self.rewards = [], [], []

    def act(self, s):
        dist = torch.distributions.Categorical(logits=self.policy(s))
        a = dist.sample()
        self.logps.append(dist.log_prob(a))  # ok
        self.states.append(s)  # ok
        return int(a)

    def update(self):
        g, returns = 0.0, []
        for r in reversed(self.rewards):
            g = r + 0.95 * g
            returns.insert(0, g)
        returns = torch.tensor(returns)
        states = torch.stack(self.states)
        values = self.baseline(states).squeeze(-1)
        with torch.no_grad():
            advantages = returns - values
        loss = -(torch.stack(self.logps) * advantages).sum() + F.mse_loss(values, returns)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.logps.clear()
        self.states.clear()
        self.rewards.clear()
        return loss.item()


def main():
    env, agent = Bandit2Step(), Learner()
    recent = deque(maxlen=10)
    action_counts = Counter()
    episode_log = []
    for episode in range(60):
        s, done, total = env.reset(), False, 0.0
        while not done:
            a = agent.act(s)
            action_counts[a] += 1  # ok
            s, r, done = env.step(a)
            agent.rewards.append(r)
            total += r
        loss_value = agent.update()
        recent.append(total)  # ok
        episode_log.append({"episode": episode, "return": total, "loss": loss_value})  # ok
        if episode % 20 == 19:
            print(f"episode {episode + 1}: mean return {sum(recent) / len(recent):.2f} loss {loss_value:.3f}")
    print(dict(action_counts))


if __name__ == "__main__":
    main()
