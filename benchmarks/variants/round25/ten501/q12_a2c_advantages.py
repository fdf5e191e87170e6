import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs=4, n_act=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs, 32), nn.ReLU())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.trunk(s)
        return self.pi(h), self.v(h).squeeze(-1)


class AdvantageLog:
    """Keeps advantage statistics over the whole run for a histogram at the end."""

    def __init__(self):
        self.batches = []

    def add(self, adv):
        self.batches.append(adv)

    def summary(self):
        a = torch.cat(self.batches)
        return round(float(a.mean()), 4), round(float(a.std()), 4)


def compute_returns(rewards, last_value, gamma=0.95):
    out, R = [], last_value
    for r in reversed(rewards):
        R = r + gamma * R
        out.insert(0, R)
    return torch.stack(out)


def main():
    ac = ActorCritic()
    opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
    adv_log, adv_log_ok = AdvantageLog(), AdvantageLog()
    entropy_trace = []
    for update in range(8):
        states = torch.randn(16, 4)
        logits, values = ac(states)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        rewards = [(a == 1).float() for a in actions]
        returns = compute_returns(rewards, torch.tensor(0.0))
        advantages = returns - values
        adv_log.add(advantages)  # expect: TEN501
        adv_log_ok.add(advantages.detach())  # ok
        policy_loss = -(dist.log_prob(actions) * advantages.detach()).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        entropy_trace.append(dist.entropy().mean())  # expect: TEN501
    print("advantage stats", adv_log.summary(), adv_log_ok.summary())


main()
