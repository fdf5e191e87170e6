"""TransE knowledge-graph embeddings with margin ranking loss."""
from typing import Callable, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class TransE(nn.Module):
    def __init__(self, n_ent, n_rel, dim=100, p=1):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        nn.init.uniform_(self.ent.weight, -6 / dim ** 0.5, 6 / dim ** 0.5)
        nn.init.uniform_(self.rel.weight, -6 / dim ** 0.5, 6 / dim ** 0.5)
        self.p = p

    def distance(self, h, r, t):
        return (self.ent(h) + self.rel(r) - self.ent(t)).norm(p=self.p, dim=-1)


def corrupt(triples, n_ent):
    h, r, t = triples.unbind(1)
    flip = torch.rand(h.shape) < 0.5
    rand_ent = torch.randint(0, n_ent, h.shape)
    return torch.where(flip, rand_ent, h), r, torch.where(flip, t, rand_ent)


def train(model, triples, n_ent, epochs=100, batch=4096, margin=1.0,
          on_step: Optional[Callable] = None):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        perm = torch.randperm(triples.size(0))
        epoch_loss = 0.0
        for chunk in perm.split(batch):
            pos = triples[chunk]
            with torch.no_grad():
                model.ent.weight.data = F.normalize(model.ent.weight.data, dim=1)
            d_pos = model.distance(*pos.unbind(1))
            d_neg = model.distance(*corrupt(pos, n_ent))
            loss = F.relu(margin + d_pos - d_neg).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.item()  # ok
            if on_step is not None:
                on_step(loss)  # either
        print(epoch, epoch_loss)


def main(triples, n_ent, n_rel):
    model = TransE(n_ent, n_rel)
    trace = []
    train(model, triples, n_ent, on_step=trace.append)
    clean = []
    train(model, triples, n_ent, on_step=lambda l: clean.append(l.item()))
    return trace, clean


@torch.no_grad()
def mean_rank(model, test, n_ent):
    ranks = []
    all_e = torch.arange(n_ent)
    for h, r, t in test.tolist():
        d = model.distance(torch.full_like(all_e, h), torch.full_like(all_e, r), all_e)
        ranks.append(int((d < d[t]).sum()) + 1)  # ok
    return sum(ranks) / len(ranks)
