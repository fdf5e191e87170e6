"""Members of an ensemble register themselves in a class-level list."""
import torch
import torch.nn as nn


class Zoo:
    members = []
    member_copies = []


class Member:
    def __init__(self, net):
        self.net = net

    def train_on(self, x, y, steps=15):
        opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.mse_loss(self.net(x), y).backward()
            opt.step()

    def publish(self):
        Zoo.members.append(self.net.state_dict())  # expect: TEN402
        Zoo.member_copies.append({k: v.clone() for k, v in self.net.state_dict().items()})  # ok


torch.manual_seed(0)
x = torch.randn(50, 4)
y = x.sum(1, keepdim=True).tanh()
shared = nn.Linear(4, 1)   # every member fine-tunes the same module (warm start chain)
for i in range(3):
    m = Member(shared)
    m.train_on(x + 0.5 * i, y)
    m.publish()
probe = nn.Linear(4, 1)
with torch.no_grad():
    for name, bank in (("members", Zoo.members), ("copies", Zoo.member_copies)):
        outs = []
        for sd in bank:
            probe.load_state_dict(sd)
            outs.append(probe(x))
        spread = torch.stack(outs).std(0).mean().item()
        print(name, "ensemble spread", round(spread, 6))
