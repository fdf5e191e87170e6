"""PPO-style update with a rollout buffer and per-update statistics."""
from collections import defaultdict

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def dist(self, obs):
        return Categorical(logits=self.pi(obs))


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def clear(self):
        self.obs, self.actions, self.logps, self.values, self.rewards = [], [], [], [], []

    def add(self, obs, action, logp, value, reward):
        self.obs.append(obs)
        self.actions.append(action)
        self.logps.append(logp)
        self.values.append(value)
        self.rewards.append(reward)


def collect(ac, buf, steps):
    obs = torch.randn(4)
    for _ in range(steps):
        with torch.no_grad():
            d = ac.dist(obs)
            a = d.sample()
            logp = d.log_prob(a)
            v = ac.v(obs).squeeze(-1)
        reward = float(a.item() == 1) - 0.3 * float(obs[0] > 0)
        buf.add(obs, a, logp, v, reward)  # ok
        obs = torch.randn(4)


ac = ActorCritic(4, 2)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
buf = RolloutBuffer()
stats = defaultdict(list)
clip = 0.2

for update in range(4):
    buf.clear()
    collect(ac, buf, 32)
    obs = torch.stack(buf.obs)
    acts = torch.stack(buf.actions)
    old_logp = torch.stack(buf.logps)
    rets = torch.tensor(buf.rewards)
    adv = rets - torch.stack(buf.values)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for epoch in range(3):
        d = ac.dist(obs)
        logp = d.log_prob(acts)
        ratio = torch.exp(logp - old_logp)
        pg_loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv).mean()
        v_loss = ((ac.v(obs).squeeze(-1) - rets) ** 2).mean()
        entropy = d.entropy().mean()
        loss = pg_loss + 0.5 * v_loss - 0.01 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()

        approx_kl = (old_logp - logp).mean()
        clipfrac = ((ratio - 1.0).abs() > clip).float().mean()
        stats["policy_loss"].append(pg_loss)  # expect: TEN501
        stats["approx_kl"].append(approx_kl)  # expect: TEN501
        stats["clipfrac"].append(clipfrac)  # ok
        stats["value_loss"].append(v_loss.item())  # ok
        stats["entropy"].append(entropy.detach())  # ok

for k, v in stats.items():
    print(k, len(v), round(float(torch.as_tensor([float(t) for t in v]).mean()), 5))
