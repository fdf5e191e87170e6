"""PPO-style rollout collection and clipped-surrogate updates."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.pi = nn.Linear(16, n_act)
        self.v = nn.Linear(16, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


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

    def tensors(self):
        return (torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.logps),
                torch.stack(self.values), torch.tensor(self.rewards))


ac = ActorCritic()
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
buffer = RolloutBuffer()
diagnostics_buffer = RolloutBuffer()
stats = defaultdict(list)
approx_kl_hist = []
entropies = []

for update in range(3):
    buffer.clear()
    obs = torch.randn(4)
    for t in range(6):
        with torch.no_grad():
            dist, value = ac(obs)
            action = dist.sample()
            logp = dist.log_prob(action)
        reward = float(action.item() == int(obs[0] > 0))
        buffer.add(obs, action, logp, value, reward)  # ok
        dist_g, value_g = ac(obs)
        diagnostics_buffer.add(obs, action, dist_g.log_prob(action), value_g, reward)  # expect: TEN501
        obs = torch.randn(4)

    b_obs, b_act, b_logp, b_val, b_rew = buffer.tensors()
    adv = b_rew - b_val
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for epoch in range(2):
        dist, value = ac(b_obs)
        new_logp = dist.log_prob(b_act)
        ratio = (new_logp - b_logp).exp()
        surr1 = ratio * adv
        surr2 = ratio.clamp(0.8, 1.2) * adv
        policy_loss = -torch.min(surr1, surr2).mean()
        value_loss = F.mse_loss(value, b_rew)
        entropy = dist.entropy().mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()

        clipfrac = ((ratio - 1).abs() > 0.2).float().mean()
        stats["policy_loss"].append(policy_loss)  # expect: TEN501
        stats["value_loss"].append(value_loss.item())  # ok
        stats["clipfrac"].append(clipfrac)  # ok
        approx_kl_hist.append((b_logp - new_logp).mean())  # expect: TEN501
        entropies.append(entropy.detach())  # ok

print("updates:", len(stats["value_loss"]), "last value loss:", round(stats["value_loss"][-1], 4),
      "diag steps:", len(diagnostics_buffer.values))
