"""SimCLR/MoCo-flavoured contrastive learning with a memory bank and learned temperature."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBank:
    def __init__(self, dim, size):
        self.size = size
        self.bank = torch.zeros(0, dim)

    def push(self, z):
        self.bank = torch.cat([self.bank, z], dim=0)[-self.size:]


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
        self.log_temp = nn.Parameter(torch.tensor(math.log(0.1)))

    def forward(self, x):
        return F.normalize(self.f(x), dim=-1)


torch.manual_seed(0)
enc = Encoder()
opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
bank = MemoryBank(8, 64)
bank_ok = MemoryBank(8, 64)
temps, temp_vals = [], []
for step in range(4):
    x = torch.randn(6, 10)
    z1, z2 = enc(x + 0.1 * torch.randn_like(x)), enc(x + 0.1 * torch.randn_like(x))
    temp = enc.log_temp.exp()
    logits = z1 @ z2.t() / temp
    loss = F.cross_entropy(logits, torch.arange(6))
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank.push(z1)  # expect: TEN501
    bank_ok.push(z2.detach())  # ok
    temps.append(enc.log_temp.exp())  # expect: TEN501
    temp_vals.append(enc.log_temp.exp().item())  # ok
print(bank.bank.shape, bank_ok.bank.shape, len(temps), temp_vals[-1])
