"""PPO-style rollout collection with GAE on a toy 1-D environment."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        self.v = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, s):
        return torch.distributions.Categorical(logits=self.pi(s)), self.v(s).squeeze(-1)


def env_step(s, a):
    pos = s[0] + (0.1 if a == 1 else -0.1)
    r = -abs(pos.item() - 0.5)
    return torch.stack([pos, s[1] + 0.1]), r


def compute_gae(rewards, values, gamma=0.99, lam=0.95):
    adv, gae = [], 0.0
    next_v = 0.0
    for r, v in zip(reversed(rewards), reversed(values)):
        delta = r + gamma * next_v - v
        gae = delta + gamma * lam * gae
        adv.insert(0, gae)
        next_v = v
    return adv


policy = Policy()
opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
value_log = []
adv_log = []
for update in range(4):
    s = torch.zeros(2)
    logps, values, rewards = [], [], []
    for t in range(8):
        dist, v = policy(s)
        a = dist.sample()
        logps.append(dist.log_prob(a))
        values.append(v)  # ok
        s, r = env_step(s, a.item())
        rewards.append(r)
    advantages = compute_gae(rewards, [v.detach() for v in values])
    adv_log.extend(advantages)  # ok
    value_log.extend(values)  # expect: TEN501
    adv_t = torch.stack(advantages)
    returns = adv_t + torch.stack(values).detach()
    loss = -(torch.stack(logps) * adv_t).mean() + 0.5 * (torch.stack(values) - returns).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"update {update} loss {loss.item():.4f} mean adv {adv_t.mean().item():.4f}")
print(len(value_log), len(adv_log))
