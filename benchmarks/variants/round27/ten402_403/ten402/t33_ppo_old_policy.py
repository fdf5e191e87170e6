"""PPO clipped objective on a toy bandit; the 'old' policy is kept two ways."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)

policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))
old_policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))
opt = torch.optim.Adam(policy.parameters(), lr=0.02)
CLIP = 0.2
reward_table = torch.tensor([0.1, 0.5, -0.2, 1.0])

for it in range(6):
    old_policy.load_state_dict(policy.state_dict())  # ok
    old_params = dict(policy.named_parameters())  # expect: TEN402
    obs = torch.randn(128, 3)
    with torch.no_grad():
        dist = torch.distributions.Categorical(logits=old_policy(obs))
        acts = dist.sample()
        logp_old = dist.log_prob(acts)
        adv = reward_table[acts] - reward_table[acts].mean()
    for epoch in range(4):
        logp = torch.distributions.Categorical(logits=policy(obs)).log_prob(acts)
        ratio = (logp - logp_old).exp()
        loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        kl_a = (logp_old - torch.distributions.Categorical(logits=functional_call(policy, old_params, (obs,))).log_prob(acts)).mean()
        kl_b = (logp_old - torch.distributions.Categorical(logits=policy(obs)).log_prob(acts)).mean()
    print(f"iter {it} loss {loss.item():.5f} approx-kl(old_params) {kl_a.item():.6f} approx-kl(live) {kl_b.item():.6f}")
