import torch
import torch.nn as nn
from torch.distributions import Categorical
from torch.func import functional_call

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 32), nn.Tanh())
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


class PPO:
    def __init__(self, policy, clip=0.2, epochs=6, lr=1e-2):
        self.policy = policy
        self.clip = clip
        self.epochs = epochs
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr)

    def snapshot_old(self):
        return {k: v for k, v in self.policy.state_dict().items()}  # expect: TEN402

    def update(self, states, actions, returns):
        old = self.snapshot_old()  # either: TEN402
        stats = []
        for _ in range(self.epochs):
            with torch.no_grad():
                old_logits, old_v = functional_call(self.policy, old, (states,))
                old_logp = Categorical(logits=old_logits).log_prob(actions)
            logits, v = self.policy(states)
            logp = Categorical(logits=logits).log_prob(actions)
            adv = returns - old_v
            ratio = (logp - old_logp).exp()
            surr = torch.min(ratio * adv, ratio.clamp(1 - self.clip, 1 + self.clip) * adv)
            loss = -surr.mean() + 0.5 * (returns - v).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            stats.append((ratio - 1).abs().max().item())
        return stats


policy = Policy()
agent = PPO(policy)
vinit = {k: v.clone() for k, v in policy.state_dict().items()}  # ok
for it in range(3):
    s = torch.randn(128, 4)
    with torch.no_grad():
        a = Categorical(logits=policy(s)[0]).sample()
    ret = (s[:, 0] * (2 * a - 1).float()) + 0.1 * torch.randn(128)
    st = agent.update(s, a, ret)
    print(f"iter {it}: max |ratio-1| per epoch", [round(x, 6) for x in st])
print(f"value head drift {(policy.state_dict()['v.weight'] - vinit['v.weight']).norm().item():.6f}")
