"""A tiny transformer encoder whose modules keep some state around for debugging."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, keep_maps=False):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.keep_maps = keep_maps
        self.attn_maps = []
        self.last_attn = None

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.heads)
        attn = scores.softmax(dim=-1)
        if self.keep_maps:
            self.attn_maps.append(attn)  # expect: TEN501
        self.last_attn = attn.detach()  # ok
        out = (attn @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, heads, keep_maps=False):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads, keep_maps)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.residual_norm = 0.0

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        self.residual_norm = x.norm(dim=-1).mean().item()  # ok
        return x


class Encoder(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, depth=2, n_classes=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, 16, dim))
        self.blocks = nn.ModuleList([Block(dim, heads, keep_maps=(i == depth - 1)) for i in range(depth)])
        self.head = nn.Linear(dim, n_classes)
        self.register_buffer("running_act", torch.zeros(dim))
        self.act_energy = torch.tensor(0.0)
        self.last_hidden = None

    def forward(self, ids):
        h = self.tok(ids) + self.pos[:, : ids.shape[1]]
        for blk in self.blocks:
            h = blk(h)
        if self.training:
            with torch.no_grad():
                self.running_act.mul_(0.9).add_(h.mean(dim=(0, 1)), alpha=0.1)  # ok
            self.act_energy = 0.9 * self.act_energy + 0.1 * h.pow(2).mean()  # expect: TEN501
        self.last_hidden = h  # either
        return self.head(h.mean(dim=1))


def main():
    model = Encoder()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    ids = torch.randint(0, 40, (96, 16))
    labels = (ids[:, 0] > ids[:, -1]).long()
    for it in range(6):
        sel = torch.randint(0, 96, (16,))
        logits = model(ids[sel])
        loss = F.cross_entropy(logits, labels[sel])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(it, round(loss.item(), 4), round(model.blocks[0].residual_norm, 3))
    print("maps kept:", len(model.blocks[-1].attn.attn_maps))


if __name__ == "__main__":
    main()
