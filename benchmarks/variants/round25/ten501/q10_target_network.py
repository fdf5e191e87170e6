"""DQN-flavoured soft target updates: one by hand into a dict, one Polyak under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class QNet(nn.Module):
    def __init__(self, obs=4, act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.ReLU(), nn.Linear(32, act))

    def forward(self, s):
        return self.body(s)


class Agent:
    def __init__(self, tau=0.05):
        self.q = QNet()
        self.q_target = QNet().requires_grad_(False)
        self.q_target.load_state_dict(self.q.state_dict())
        self.shadow = {n: p.detach().clone() for n, p in self.q.named_parameters()}
        self.tau = tau
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)

    def soft_update_shadow(self):
        for name, p in self.q.named_parameters():
            self.shadow[name] = self.tau * p + (1 - self.tau) * self.shadow[name]  # expect: TEN501

    def soft_update_target(self):
        with torch.no_grad():
            for tp, p in zip(self.q_target.parameters(), self.q.parameters()):
                tp.lerp_(p, self.tau)  # ok

    def hard_update_target(self):
        self.q_target.load_state_dict(self.q.state_dict())  # ok

    def learn(self, s, a, r, s2, done, gamma=0.99):
        q = self.q(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            target = r + gamma * (1 - done) * self.q_target(s2).max(1).values
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


agent = Agent()
for step in range(12):
    s, s2 = torch.randn(32, 4), torch.randn(32, 4)
    a = torch.randint(0, 2, (32,))
    r = torch.randn(32)
    done = (torch.rand(32) < 0.1).float()
    l = agent.learn(s, a, r, s2, done)
    agent.soft_update_shadow()
    agent.soft_update_target()
    if step % 5 == 4:
        agent.hard_update_target()
print("last td loss", round(l, 4))
print("shadow norm", round(sum(float(v.norm()) for v in agent.shadow.values()), 4))
