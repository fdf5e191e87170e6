"""A2C with an on-policy rollout storage that is reset after every update."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 32), nn.Tanh())
        self.pi = nn.Linear(32, 3)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


class RolloutStorage:
    def __init__(self):
        self.reset()

    def reset(self):
        self.log_probs, self.values, self.rewards, self.entropies = [], [], [], []

    def insert(self, log_prob, value, reward, entropy):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)
        self.entropies.append(entropy)


class TrainLog:
    def __init__(self):
        self.value_history = []
        self.adv_history = []

    def log_update(self, value_loss, advantages):
        self.value_history.append(value_loss)
        self.adv_history.append(advantages.mean())


ac = ActorCritic()
opt = torch.optim.RMSprop(ac.parameters(), lr=7e-4)
storage = RolloutStorage()
log = TrainLog()
log_ok = TrainLog()
n_steps, gamma = 5, 0.99
for update in range(4):
    obs = torch.randn(4, 6)
    for step in range(n_steps):
        dist, value = ac(obs)
        action = dist.sample()
        reward = (action == 0).float()
        storage.insert(dist.log_prob(action), value, reward, dist.entropy())  # ok
        obs = torch.randn(4, 6)
    with torch.no_grad():
        _, next_value = ac(obs)
    R = next_value
    returns = []
    for r in reversed(storage.rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.stack(returns)
    values = torch.stack(storage.values)
    advantages = returns - values
    policy_loss = -(torch.stack(storage.log_probs) * advantages.detach()).mean()
    value_loss = advantages.pow(2).mean()
    entropy = torch.stack(storage.entropies).mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
    opt.step()
    storage.reset()
    log.log_update(value_loss, advantages)  # expect: TEN501
    log_ok.log_update(value_loss.item(), advantages.detach())  # ok
print(len(log.value_history), log_ok.value_history[-1])
