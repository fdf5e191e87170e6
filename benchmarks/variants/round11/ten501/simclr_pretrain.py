import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, out_dim=128):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.proj = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, out_dim))

    def forward(self, x):
        h = self.backbone(x)
        return h, self.proj(h)


def nt_xent(z1, z2, tau=0.2):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    n = z1.size(0)
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def variance_reg(h, eps=1e-4):
    std = torch.sqrt(h.var(dim=0) + eps)
    return F.relu(1.0 - std).mean()


def augment(x):
    flip = torch.rand(x.size(0), 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(3), x)
    return x + 0.1 * torch.randn_like(x)


def pretrain(loader, epochs=10, reg_weight=0.5):
    enc = Encoder()
    opt = torch.optim.SGD(enc.parameters(), lr=0.3, momentum=0.9)
    step_log = []
    totals = {"nce": 0.0, "var": 0.0}
    for epoch in range(epochs):
        for x, _ in loader:
            h1, z1 = enc(augment(x))
            h2, z2 = enc(augment(x))
            terms = {
                "nce": nt_xent(z1, z2),
                "var": variance_reg(h1) + variance_reg(h2),
            }
            loss = terms["nce"] + reg_weight * terms["var"]
            opt.zero_grad()
            loss.backward()
            opt.step()

            step_log.append(terms)  # expect: TEN501
            for name in totals:
                totals[name] += terms[name]  # expect: TEN501
            with torch.no_grad():
                align = (F.normalize(z1, dim=1) * F.normalize(z2, dim=1)).sum(1).mean()
            step_log.append({"align": align})  # ok
        print(epoch, {k: float(v) for k, v in totals.items()})
    return enc


def knn_probe(enc, bank_loader, query_loader, k=20):
    enc.eval()
    feats, labels = [], []
    with torch.no_grad():
        for x, y in bank_loader:
            feats.append(F.normalize(enc(x)[0], dim=1))  # ok
            labels.append(y)  # ok
        bank = torch.cat(feats)
        bank_y = torch.cat(labels)
        correct = 0
        for x, y in query_loader:
            q = F.normalize(enc(x)[0], dim=1)
            idx = (q @ bank.t()).topk(k, dim=1).indices
            pred = bank_y[idx].mode(dim=1).values
            correct += (pred == y).sum().item()  # ok
    return correct
