"""Fitted Q iteration on a 6-state chain with a periodically synced target network."""
import copy

import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, GAMMA = 6, 0.9


def transitions(n):
    s = torch.randint(0, N_STATES, (n,))
    a = torch.randint(0, 2, (n,))
    s2 = (s + (2 * a - 1)).clamp(0, N_STATES - 1)
    r = (s2 == N_STATES - 1).float()
    done = s2 == N_STATES - 1
    return s, a, r, s2, done


def onehot(s):
    return nn.functional.one_hot(s, N_STATES).float()


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        return self.body(x)


class StateDictTargetAgent:
    def __init__(self, sync_every=50):
        self.q = QNet()
        self.opt = torch.optim.Adam(self.q.parameters(), lr=5e-3)
        self.sync_every = sync_every
        self.sync()

    def sync(self):
        self.target_state = {k: v for k, v in self.q.state_dict().items()}  # expect: TEN402

    def target_values(self, s2):
        with torch.no_grad():
            return functional_call(self.q, self.target_state, (onehot(s2),)).max(1).values

    def learn(self, batch, step):
        s, a, r, s2, done = batch
        y = r + GAMMA * (~done).float() * self.target_values(s2)
        q = self.q(onehot(s)).gather(1, a[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        if step % self.sync_every == 0:
            self.sync()


class ModuleTargetAgent(StateDictTargetAgent):
    def __init__(self, sync_every=50):
        super().__init__(sync_every)
        self.target = copy.deepcopy(self.q)  # ok
        self.target.requires_grad_(False)

    def sync(self):
        if hasattr(self, "target"):
            self.target.load_state_dict(self.q.state_dict())  # ok

    def target_values(self, s2):
        with torch.no_grad():
            return self.target(onehot(s2)).max(1).values


def main():
    for cls in (StateDictTargetAgent, ModuleTargetAgent):
        torch.manual_seed(2)
        agent = cls()
        for step in range(1, 601):
            agent.learn(transitions(64), step)
        with torch.no_grad():
            v = agent.q(onehot(torch.arange(N_STATES))).max(1).values
        ideal = torch.tensor([GAMMA ** (N_STATES - 2 - i) for i in range(N_STATES - 1)] + [0.0])
        print(cls.__name__, "V:", [round(x, 3) for x in v.tolist()], "err %.3f" % (v[:-1] - ideal[:-1]).abs().max())


if __name__ == "__main__":
    main()
