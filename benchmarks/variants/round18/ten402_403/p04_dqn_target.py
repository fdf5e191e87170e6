"""DQN agents: a hard-updated target network and a Polyak-averaged one."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT = 4, 2


def qnet():
    return nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACT))


class Agent:
    def __init__(self, gamma=0.99, lr=1e-2):
        self.gamma = gamma
        self.policy_net = qnet()
        self.target_net = self.policy_net  # expect: TEN402
        self.opt = torch.optim.Adam(self.policy_net.parameters(), lr=lr)
        self.steps = 0

    def sync(self):
        self.target_net.load_state_dict(self.policy_net.state_dict())  # ok

    def learn(self, s, a, r, s2, done):
        q = self.policy_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - done) * self.target_net(s2).max(1).values
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.steps += 1
        if self.steps % 10 == 0:
            self.sync()
        return loss.item()


class PolyakAgent(Agent):
    def __init__(self, tau=0.05, **kw):
        super().__init__(**kw)
        self.tau = tau
        self.target_net = copy.deepcopy(self.policy_net)  # ok
        for p in self.target_net.parameters():
            p.requires_grad_(False)

    def sync(self):
        with torch.no_grad():
            for tp, p in zip(self.target_net.parameters(), self.policy_net.parameters()):
                tp.mul_(1 - self.tau).add_(p, alpha=self.tau)  # ok


def batch(n=32):
    s = torch.randn(n, OBS)
    a = torch.randint(0, ACT, (n,))
    r = torch.randn(n)
    s2 = s + 0.1 * torch.randn(n, OBS)
    done = (torch.rand(n) < 0.1).float()
    return s, a, r, s2, done


if __name__ == "__main__":
    for cls in (Agent, PolyakAgent):
        torch.manual_seed(0)
        agent = cls()
        losses = [agent.learn(*batch()) for _ in range(30)]
        same = all(a is b for a, b in zip(agent.target_net.parameters(), agent.policy_net.parameters()))
        print(cls.__name__, round(sum(losses) / len(losses), 4), "target is policy:", same)
