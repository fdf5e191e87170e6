"""Modules that keep bookkeeping state on `self` inside forward()."""
import math
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Recorder(nn.Module):
    """Base class offering a `remember` helper to subclasses."""

    def __init__(self):
        super().__init__()
        self._memory = defaultdict(list)

    def remember(self, name, value):
        self._memory[name].append(value)


class AttentionWithHistory(Recorder):
    def __init__(self, d=8):
        super().__init__()
        self.d = d
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, 4)
        self.attn_history = []
        self.num_calls = 0
        self.last_norm = 0.0
        self.register_buffer("running_act", torch.zeros(d))
        self.running_act_plain = torch.zeros(d)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attn = F.softmax(q @ k.transpose(0, 1) / math.sqrt(self.d), dim=-1)
        self.attn_history.append(attn)  # expect: TEN501
        self.num_calls += 1  # ok
        out = attn @ v
        with torch.no_grad():
            self.running_act.mul_(0.9).add_(0.1 * out.mean(0))  # ok
        self.running_act_plain = 0.9 * self.running_act_plain + 0.1 * out.mean(0)  # expect: TEN501
        self.last_norm = out.norm().item()  # ok
        logits = self.proj(out)
        self.remember("logits", logits)  # expect: TEN501
        self.remember("entropy", -(attn * attn.clamp_min(1e-9).log()).sum(-1).mean().item())  # ok
        return logits


model = AttentionWithHistory()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(4):
    x, y = torch.randn(5, 8), torch.randint(0, 4, (5,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

print("calls:", model.num_calls, "entropy:", [round(e, 3) for e in model._memory["entropy"]],
      "running:", round(model.running_act.norm().item(), 4))
