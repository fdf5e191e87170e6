"""Reward/observation history features for a batch of bandit agents."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class History:
    def __init__(self, n_agents, horizon, cloned):
        self.hist = torch.zeros(n_agents, horizon)
        self.summary = torch.zeros(n_agents, 6)
        self.cloned = cloned

    def record(self, reward):
        if self.cloned:
            self.hist[:, 1:].copy_(self.hist[:, :-1].clone())  # ok
        else:
            self.hist[:, 1:].copy_(self.hist[:, :-1])  # expect: TEN403
        self.hist[:, 0].copy_(reward)  # ok
        self.summary[:, 0:2].copy_(self.summary[:, 4:6])  # ok
        self.summary[:, 2].copy_(self.hist.mean(1))  # ok
        self.summary[:, 3].copy_(self.hist.std(1))  # ok
        self.summary[:, 4:6].copy_(self.hist[:, :2])  # ok


def simulate(cloned):
    torch.manual_seed(7)
    n_agents, arms = 5, 3
    probs = torch.rand(n_agents, arms)
    hist = History(n_agents, 12, cloned)
    head = nn.Linear(12 + 6, arms)
    total = 0.0
    for _ in range(40):
        with torch.no_grad():
            logits = head(torch.cat([hist.hist, hist.summary], 1))
        arm = torch.distributions.Categorical(logits=logits).sample()
        reward = torch.bernoulli(probs.gather(1, arm[:, None]).squeeze(1))
        hist.record(reward)
        total += reward.sum().item()
    return total, hist.hist.sum().item()


if __name__ == "__main__":
    print("aliased history:", simulate(False))
    print("cloned history: ", simulate(True))
