"""A2C-style update that returns a dict of loss terms and logs them per key."""
import collections
import torch
import torch.nn as nn
from torch.distributions import Normal


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 16)
        self.mu = nn.Linear(16, 1)
        self.log_std = nn.Parameter(torch.zeros(1))
        self.v = nn.Linear(16, 1)

    def forward(self, s):
        h = torch.relu(self.body(s))
        return Normal(self.mu(h), self.log_std.exp()), self.v(h)


def compute_losses(agent, s, a, ret):
    dist, v = agent(s)
    adv = ret - v
    return {
        "policy": -(dist.log_prob(a) * adv.detach()).mean(),
        "value": adv.pow(2).mean(),
        "entropy": -dist.entropy().mean(),
    }


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    agent = Agent()
    opt = torch.optim.RMSprop(agent.parameters(), lr=7e-4)
    history = collections.defaultdict(list)
    scalars = collections.defaultdict(list)
    entropies = []
    coefs = {"policy": 1.0, "value": 0.5, "entropy": 0.01}
    for update in range(4):
        s, a, ret = torch.randn(16, 3), torch.randn(16, 1), torch.randn(16, 1)
        losses = compute_losses(agent, s, a, ret)
        total = sum(coefs[k] * v for k, v in losses.items())
        opt.zero_grad()
        total.backward()
        opt.step()
        for name, term in losses.items():
            history[name].append(term)  # expect: TEN501
            scalars[name].append(term.item())  # ok
        entropies.append(-losses["entropy"])  # expect: TEN501
        snapshot = {k: v.detach() for k, v in losses.items()}  # ok
        history["total_detached"].append(snapshot["policy"] + snapshot["value"])  # ok
    print({k: round(sum(v) / len(v), 4) for k, v in scalars.items()}, len(history["policy"]),
          float(torch.stack(entropies).mean()), float(sum(history["total_detached"])))


if __name__ == "__main__":
    main()
