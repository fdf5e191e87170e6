"""Tiny DQN on a chain MDP with a hand-rolled target network."""
import copy
import random
import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

N_STATES, N_ACT, GAMMA = 6, 2, 0.9


def one_hot(s):
    v = torch.zeros(N_STATES)
    v[s] = 1.0
    return v


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = 1.0 if s2 == N_STATES - 1 else 0.0
    return s2, r, s2 == N_STATES - 1


class Agent:
    def __init__(self):
        self.q = nn.Linear(N_STATES, N_ACT)
        self.opt = torch.optim.SGD(self.q.parameters(), lr=0.2)
        self.sync_target()

    def sync_target(self):
        self.target_params = list(self.q.parameters())  # expect: TEN402

    def target_q(self, s2):
        w, b = self.target_params
        return s2 @ w.t() + b

    def learn(self, batch):
        s = torch.stack([one_hot(t[0]) for t in batch])
        a = torch.tensor([t[1] for t in batch])
        r = torch.tensor([t[2] for t in batch])
        s2 = torch.stack([one_hot(t[3]) for t in batch])
        d = torch.tensor([float(t[4]) for t in batch])
        with torch.no_grad():
            y = r + GAMMA * (1 - d) * self.target_q(s2).max(1).values
        q = self.q(s).gather(1, a[:, None]).squeeze(1)
        loss = ((q - y) ** 2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class AgentDeep(Agent):
    def sync_target(self):
        self.target_net = copy.deepcopy(self.q)  # ok

    def target_q(self, s2):
        return self.target_net(s2)


for cls in (Agent, AgentDeep):
    torch.manual_seed(0)
    random.seed(0)
    ag = cls()
    buf, s, losses = [], 0, []
    for t in range(300):
        a = random.randrange(N_ACT)
        s2, r, done = env_step(s, a)
        buf.append((s, a, r, s2, done))
        s = 0 if done else s2
        if len(buf) >= 16:
            losses.append(ag.learn(random.sample(buf, 16)))
        if t % 50 == 49:
            ag.sync_target()
    with torch.no_grad():
        qs = ag.q(torch.eye(N_STATES))[:, 1]
    print(cls.__name__, "mean loss %.5f" % (sum(losses[-50:]) / 50), "Q(right)", [round(v, 4) for v in qs.tolist()])
