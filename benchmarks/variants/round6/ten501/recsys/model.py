from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class RecOutput:
    loss: torch.Tensor
    scores: torch.Tensor
    reg: torch.Tensor
    temperature: float


class Tower(nn.Module):
    def __init__(self, n_ids, dim):
        super().__init__()
        self.emb = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=16, temperature=0.1, l2=1e-4):
        super().__init__()
        self.user_tower = Tower(n_users, dim)
        self.item_tower = Tower(n_items, dim)
        self.temperature = temperature
        self.l2 = l2

    def forward(self, users, items):
        u = self.user_tower(users)
        v = self.item_tower(items)
        scores = u @ v.t() / self.temperature
        labels = torch.arange(users.size(0))
        loss = F.cross_entropy(scores, labels)
        reg = self.l2 * (self.user_tower.emb(users).pow(2).sum() + self.item_tower.emb(items).pow(2).sum())
        return RecOutput(loss=loss + reg, scores=scores, reg=reg, temperature=self.temperature)
