import torch
import torch.nn.functional as F

from .nets import make_qnet
from .targets import ClonedTarget, FrozenTarget


class Agent:
    def __init__(self, obs_dim, n_actions, target="frozen", gamma=0.9, sync_every=8):
        self.online = make_qnet(obs_dim, n_actions)
        self.gamma, self.sync_every = gamma, sync_every
        self.opt = torch.optim.SGD(self.online.parameters(), lr=0.05)
        self.target = {"frozen": FrozenTarget, "cloned": ClonedTarget}[target](self)
        self.updates = 0
        self.behaviour = None

    def act(self, state):
        with torch.no_grad():
            return self.online(state).argmax(1)

    def remember_behaviour(self):
        self.behaviour = [p.detach() for p in self.online.parameters()]  # expect: TEN402

    def remember_behaviour_copy(self):
        self.behaviour = [p.detach().clone() for p in self.online.parameters()]  # ok

    def policy_drift(self):
        return sum((p.detach() - b).abs().sum().item() for p, b in zip(self.online.parameters(), self.behaviour))

    def learn(self, s, a, r, s2):
        q = self.online(s).gather(1, a[:, None]).squeeze(1)
        target = r + self.gamma * self.target.q_values(s2).max(1).values
        loss = F.mse_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.target.sync()
        return loss.item()
