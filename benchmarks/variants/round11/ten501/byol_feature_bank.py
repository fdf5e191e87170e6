"""BYOL-style pretraining with a kNN monitor fed from a rolling feature bank."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class BYOL(nn.Module):
    def __init__(self, backbone, feat_dim=512, proj=256, tau=0.996, bank_size=4096):
        super().__init__()
        self.online = nn.Sequential(backbone, mlp(feat_dim, 1024, proj))
        self.predictor = mlp(proj, 1024, proj)
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad_(False)
        self.tau = tau
        self.bank_size = bank_size
        self.bank = torch.zeros(0, proj)
        self.bank_labels = torch.zeros(0, dtype=torch.long)
        self.target_bank = torch.zeros(0, proj)

    @torch.no_grad()
    def momentum_update(self):
        for t, o in zip(self.target.parameters(), self.online.parameters()):
            t.mul_(self.tau).add_(o.detach(), alpha=1 - self.tau)

    def loss_fn(self, p, z):
        return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()

    def training_step(self, v1, v2, labels):
        z1, z2 = self.online(v1), self.online(v2)
        p1, p2 = self.predictor(z1), self.predictor(z2)
        with torch.no_grad():
            t1, t2 = self.target(v1), self.target(v2)
        loss = self.loss_fn(p1, t2) + self.loss_fn(p2, t1)

        self.bank = torch.cat([self.bank, F.normalize(z1, dim=1)])[-self.bank_size:]  # expect: TEN501
        self.target_bank = torch.cat([self.target_bank, F.normalize(t1, dim=1)])[-self.bank_size:]  # ok
        self.bank_labels = torch.cat([self.bank_labels, labels])[-self.bank_size:]  # ok
        return loss


def pretrain(model, loader, epochs=100):
    opt = torch.optim.LARS if hasattr(torch.optim, "LARS") else torch.optim.SGD
    opt = opt(list(model.online.parameters()) + list(model.predictor.parameters()), lr=0.2)
    for epoch in range(epochs):
        model.train()
        for (v1, v2), y in loader:
            loss = model.training_step(v1, v2, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.momentum_update()
    return model


@torch.no_grad()
def knn_monitor(model, x, k=20):
    q = F.normalize(model.online(x), dim=1)
    sim = q @ model.bank.t()
    idx = sim.topk(min(k, sim.size(1)), dim=1).indices
    return model.bank_labels[idx].mode(1).values
