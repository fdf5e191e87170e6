"""DQN-style TD updates with a frozen target, held as a parameter dict."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)


class Agent:
    def __init__(self, frozen_copy):
        self.q = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-2)
        self.frozen_copy = frozen_copy
        self.sync_target()

    def sync_target(self):
        if self.frozen_copy:
            self.target = {n: p.detach().clone() for n, p in self.q.named_parameters()}  # ok
        else:
            self.target = dict(self.q.named_parameters())  # expect: TEN402

    def td_step(self, s, a, r, s2, gamma=0.99):
        with torch.no_grad():
            nxt = functional_call(self.q, self.target, (s2,)).max(1).values
            tgt = r + gamma * nxt
        pred = self.q(s).gather(1, a[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(pred, tgt)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


for frozen in (False, True):
    torch.manual_seed(0)
    agent = Agent(frozen)
    s, s2 = torch.randn(32, 4), torch.randn(32, 4)
    a, r = torch.randint(0, 2, (32,)), torch.randn(32)
    for _ in range(25):
        agent.td_step(s, a, r, s2)
    w_live = agent.q[0].weight
    drift = (agent.target["0.weight"] - w_live).abs().max().item()
    print(f"frozen_copy={frozen} target_minus_online_maxabs={drift:.5f}")
