"""REINFORCE on a toy bandit-chain environment (policy-gradient agent class)."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class ChainEnv:
    def __init__(self, n=5):
        self.n = n

    def reset(self):
        self.pos = 0
        self.t = 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1.0
        return o

    def step(self, a):
        self.t += 1
        self.pos = min(self.pos + 1, self.n - 1) if a == 1 else max(self.pos - 1, 0)
        r = 1.0 if self.pos == self.n - 1 else -0.05
        return self._obs(), r, self.t >= 8


class Agent:
    def __init__(self, n_obs, n_act, gamma=0.97):
        self.policy = nn.Sequential(nn.Linear(n_obs, 16), nn.Tanh(), nn.Linear(16, n_act))
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=2e-2)
        self.gamma = gamma
        self.saved_log_probs = []
        self.rewards = []
        self.entropy_log = []
        self.episode_returns = []

    def act(self, obs):
        dist = Categorical(logits=self.policy(obs))
        a = dist.sample()
        self.saved_log_probs.append(dist.log_prob(a))  # ok
        self.entropy_log.append(dist.entropy())  # expect: TEN501
        return a.item()

    def finish_episode(self):
        R, returns = 0.0, []
        for r in reversed(self.rewards):
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-6)
        loss = -(torch.stack(self.saved_log_probs) * returns).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.episode_returns.append(sum(self.rewards))  # ok
        self.saved_log_probs, self.rewards = [], []
        return loss


env = ChainEnv()
agent = Agent(5, 2)
objective_trace = 0.0
objective_clean = []
for episode in range(6):
    obs, done = env.reset(), False
    while not done:
        obs, r, done = env.step(agent.act(obs))
        agent.rewards.append(r)
    pg_loss = agent.finish_episode()
    objective_trace = objective_trace + pg_loss  # expect: TEN501
    objective_clean.append(pg_loss.item())  # ok

print("returns", [round(x, 2) for x in agent.episode_returns])
print("objective", round(objective_trace.item(), 4), [round(v, 3) for v in objective_clean])
print("mean entropy", round(torch.stack(agent.entropy_log).mean().item(), 4))
