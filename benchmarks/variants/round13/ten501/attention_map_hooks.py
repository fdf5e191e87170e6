"""A two-layer toy encoder whose attention maps are captured with forward hooks."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySelfAttention(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.last_attn = None

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        attn = F.softmax(q @ k.transpose(-1, -2) / self.dk ** 0.5, dim=-1)
        self.last_attn = attn  # either
        out = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.proj(out), attn


class Block(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.attn = TinySelfAttention(d)
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        a, _ = self.attn(self.norm(x))
        x = x + a
        return x + self.ff(x)


class AttentionRecorder:
    def __init__(self, model, detach=False):
        self.maps = defaultdict(list)
        self.detach = detach
        self.handles = []
        for name, mod in model.named_modules():
            if isinstance(mod, TinySelfAttention):
                self.handles.append(mod.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        if self.detach:
            def hook(module, inputs, output):
                self.maps[name].append(output[1].detach().cpu())  # ok
        else:
            def hook(module, inputs, output):
                self.maps[name].append(output[1])  # expect: TEN501
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


def main(steps=3):
    torch.manual_seed(0)
    model = nn.Sequential(Block(), Block())
    head = nn.Linear(16, 2)
    opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-3)
    viz = AttentionRecorder(model)
    safe = AttentionRecorder(model, detach=True)
    reg_terms, act_norms = [], []
    for step in range(steps):
        x, y = torch.randn(4, 5, 16), torch.randint(0, 2, (4,))
        h = model(x)
        ent = -(model[0].attn.last_attn * model[0].attn.last_attn.clamp_min(1e-9).log()).sum(-1).mean()
        loss = F.cross_entropy(head(h.mean(1)), y) + 1e-3 * ent
        opt.zero_grad()
        loss.backward()
        opt.step()
        reg_terms.append(ent)  # expect: TEN501
        act_norms.append(h.norm(dim=-1).mean().item())  # ok
    viz.remove()
    safe.remove()
    print(len(viz.maps["0.attn"]), len(safe.maps["1.attn"]), act_norms[-1])


if __name__ == "__main__":
    main()
