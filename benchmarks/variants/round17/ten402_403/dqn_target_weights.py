"""Tiny DQN on a synthetic chain MDP with a functional target network."""
import copy
import random

import torch
from torch import nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

N_STATES, N_ACTIONS, GAMMA = 6, 2, 0.9


def one_hot(s):
    return nn.functional.one_hot(s, N_STATES).float()


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = 1.0 if s2 == N_STATES - 1 else 0.0
    return s2, r, s2 == N_STATES - 1


class Agent:
    def __init__(self, alias_target):
        self.q = nn.Sequential(nn.Linear(N_STATES, 16), nn.ReLU(), nn.Linear(16, N_ACTIONS))
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-2)
        self.alias_target = alias_target
        self.target_net = copy.deepcopy(self.q)  # ok
        self.sync_target()

    def sync_target(self):
        if self.alias_target:
            self.target = {k: v.detach() for k, v in self.q.state_dict().items()}  # expect: TEN402
        else:
            self.target = {k: v.detach().clone() for k, v in self.q.state_dict().items()}  # ok
        self.target_net.load_state_dict(self.q.state_dict())  # ok

    def act(self, s, eps):
        if random.random() < eps:
            return random.randrange(N_ACTIONS)
        with torch.no_grad():
            return int(self.q(one_hot(torch.tensor(s))).argmax())

    def learn(self, batch):
        s, a, r, s2, done = (torch.tensor(col) for col in zip(*batch))
        q = self.q(one_hot(s)).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            nxt = functional_call(self.q, self.target, (one_hot(s2),)).max(1).values
            nxt_ref = self.target_net(one_hot(s2)).max(1).values
            y = r.float() + GAMMA * (1 - done.float()) * nxt
        loss = nn.functional.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item(), (nxt - nxt_ref).abs().max().item()


def run(alias):
    random.seed(1)
    torch.manual_seed(1)
    agent = Agent(alias)
    memory, s, mismatch = [], 0, 0.0
    for t in range(300):
        a = agent.act(s, eps=0.3)
        s2, r, done = env_step(s, a)
        memory.append((s, a, r, s2, done))
        s = 0 if done else s2
        if len(memory) >= 32:
            _, mm = agent.learn(random.sample(memory, 32))
            mismatch = max(mismatch, mm)
        if t % 25 == 0:
            agent.sync_target()
    return mismatch


if __name__ == "__main__":
    print("aliased target max |target - ref| =", round(run(True), 5))
    print("cloned  target max |target - ref| =", round(run(False), 5))
