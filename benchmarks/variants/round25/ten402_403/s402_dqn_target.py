"""Tiny DQN on a random MDP; target network held as a parameter list."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
n_states, n_actions, gamma = 6, 3, 0.9
P = torch.randint(0, n_states, (n_states, n_actions))
R = torch.randn(n_states, n_actions)


def onehot(s):
    return torch.eye(n_states)[s]


class Agent:
    def __init__(self):
        self.q = nn.Sequential(nn.Linear(n_states, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.q_slow = nn.Sequential(nn.Linear(n_states, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.opt = torch.optim.Adam(self.q.parameters(), lr=0.01)
        self.sync()

    def sync(self):
        self.target = {n: p.detach() for n, p in self.q.named_parameters()}  # expect: TEN402
        self.q_slow.load_state_dict(self.q.state_dict())  # ok

    def td_loss(self, s, a, r, s2, use_slow):
        with torch.no_grad():
            if use_slow:
                nxt = self.q_slow(onehot(s2)).max(1).values
            else:
                nxt = functional_call(self.q, self.target, (onehot(s2),)).max(1).values
        tgt = r + gamma * nxt
        q = self.q(onehot(s)).gather(1, a[:, None]).squeeze(1)
        return ((q - tgt) ** 2).mean()


for use_slow in (False, True):
    torch.manual_seed(1)
    ag = Agent()
    for it in range(60):
        s = torch.randint(0, n_states, (32,))
        a = torch.randint(0, n_actions, (32,))
        loss = ag.td_loss(s, a, R[s, a], P[s, a], use_slow)
        ag.opt.zero_grad()
        loss.backward()
        ag.opt.step()
        if it % 20 == 19:
            ag.sync()
    with torch.no_grad():
        print("slow" if use_slow else "dict", "loss", round(loss.item(), 6), "Q", round(ag.q(torch.eye(n_states)).mean().item(), 6))
