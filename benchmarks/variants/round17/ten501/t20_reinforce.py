"""REINFORCE on a tiny corridor environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class Corridor:
    """Agent starts in the middle of a 1-D corridor; reward at the right end."""

    def __init__(self, length=6):
        self.length = length

    def reset(self):
        self.pos = self.length // 2
        self.t = 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.length)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.t += 1
        self.pos = max(0, min(self.length - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.length - 1 or self.t >= 12
        reward = 1.0 if self.pos == self.length - 1 else -0.05
        return self._obs(), reward, done


class Policy(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, obs):
        return Categorical(logits=self.net(obs))


env = Corridor()
policy = Policy(6, 2)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.95

loss_history = []
return_history = []
entropy_sum = 0.0
for episode in range(8):
    obs, done = env.reset(), False
    while not done:
        dist = policy(obs)
        action = dist.sample()
        policy.saved_log_probs.append(dist.log_prob(action))  # ok
        entropy_sum = entropy_sum + dist.entropy()  # expect: TEN501
        obs, reward, done = env.step(action.item())
        policy.rewards.append(reward)  # ok

    returns, g = [], 0.0
    for r in reversed(policy.rewards):
        g = r + gamma * g
        returns.insert(0, g)  # ok
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    policy_loss = -(torch.stack(policy.saved_log_probs) * returns).sum()
    opt.zero_grad()
    policy_loss.backward()
    opt.step()
    loss_history.append(policy_loss)  # expect: TEN501
    return_history.append(sum(policy.rewards))  # ok
    del policy.saved_log_probs[:]
    del policy.rewards[:]

print(len(loss_history), return_history[-1], float(entropy_sum))
