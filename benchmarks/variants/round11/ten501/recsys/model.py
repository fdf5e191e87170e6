import torch
from torch import nn


class MFModel(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)

    def score(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1)

    def bpr_loss(self, u, pos, neg, l2=1e-4):
        diff = self.score(u, pos) - self.score(u, neg)
        rank = -torch.nn.functional.logsigmoid(diff).mean()
        reg = l2 * (self.user(u).pow(2).sum() + self.item(pos).pow(2).sum()
                    + self.item(neg).pow(2).sum()) / u.numel()
        return rank, reg
