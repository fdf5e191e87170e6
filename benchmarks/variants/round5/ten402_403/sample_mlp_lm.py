"""Sampling from a makemore-style MLP character model with a fixed context."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPLM(nn.Module):
    def __init__(self, vocab=27, block_size=3, emb=10, hidden=64):
        super().__init__()
        self.block_size = block_size
        self.emb = nn.Embedding(vocab, emb)
        self.mlp = nn.Sequential(nn.Linear(block_size * emb, hidden), nn.Tanh(), nn.Linear(hidden, vocab))

    def forward(self, ctx):
        return self.mlp(self.emb(ctx).flatten(1))


@torch.no_grad()
def sample_one(model, max_len=20, generator=None):
    ctx = torch.zeros(1, model.block_size, dtype=torch.long)
    out = []
    for _ in range(max_len):
        probs = F.softmax(model(ctx), dim=-1)
        ix = torch.multinomial(probs, 1, generator=generator)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1] = ix[:, 0]
        if ix.item() == 0:
            break
        out.append(ix.item())
    return out


@torch.no_grad()
def sample_batch(model, n, max_len=20, generator=None):
    ctx = torch.zeros(n, model.block_size, dtype=torch.long)
    out = torch.zeros(n, max_len, dtype=torch.long)
    for t in range(max_len):
        ix = torch.multinomial(F.softmax(model(ctx), dim=-1), 1, generator=generator)
        out[:, t] = ix[:, 0]
        ctx = torch.cat([ctx[:, 1:], ix], dim=1)  # ok
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    lm = MLPLM()
    g = torch.Generator().manual_seed(0)
    print("batch:", sample_batch(lm, 2, generator=g).tolist())
    print("one:", sample_one(lm, generator=g))
