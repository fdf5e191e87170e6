"""A2C with n-step rollouts; diagnostics collected in a StatsTracker."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StatsTracker:
    def __init__(self):
        self.data = {}

    def add(self, key, value):
        self.data.setdefault(key, []).append(value)

    def mean(self, key):
        vals = self.data[key]
        return sum(float(v) for v in vals) / len(vals)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 32)
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = torch.relu(self.body(s))
        return self.pi(h), self.v(h).squeeze(-1)


def rollout(net, n_steps=6):
    states = torch.randn(n_steps, 4)
    logits, values = net(states)
    dist = torch.distributions.Categorical(logits=logits)
    actions = dist.sample()
    rewards = (actions == (states[:, 0] > 0).long()).float()
    return dist, actions, values, rewards


def n_step_returns(rewards, last_value, gamma=0.9):
    out, R = [], last_value
    for r in reversed(rewards.tolist()):
        R = r + gamma * R
        out.append(R)
    return torch.tensor(out[::-1])


net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
stats = StatsTracker()
clean_stats = StatsTracker()
for update in range(10):
    dist, actions, values, rewards = rollout(net)
    returns = n_step_returns(rewards, 0.0)
    advantages = returns - values
    policy_loss = -(dist.log_prob(actions) * advantages.detach()).mean()
    value_loss = F.mse_loss(values, returns)
    loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    stats.add("advantage", advantages.mean())  # expect: TEN501
    stats.add("value_loss", value_loss)  # expect: TEN501
    clean_stats.add("advantage", advantages.detach().mean())  # ok
    clean_stats.add("reward", rewards.sum())  # ok

print("adv", round(stats.mean("advantage"), 4), round(clean_stats.mean("advantage"), 4))
print("value loss", round(stats.mean("value_loss"), 4), "reward", clean_stats.mean("reward"))
