"""SimCLR-ish training with an extra queue of negatives (run: python -m contrastive_pkg.train)."""
import copy

import torch
import torch.nn as nn

from . import bank as bank_mod
from .bank import DetachingQueue, FeatureQueue, info_nce


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def knn_accuracy(feats, labels):
    sims = feats @ feats.t()
    sims.fill_diagonal_(-float("inf"))
    return (labels[sims.argmax(1)] == labels).float().mean().item()


def main(epochs=2, steps=3, bs=8, dim=6):
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, dim))
    momentum_enc = copy.deepcopy(encoder).requires_grad_(False)
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    raw_queue = FeatureQueue(dim, 24)
    safe_queue = DetachingQueue(dim, 24)
    key_queue = FeatureQueue(dim, 24)
    epoch_bank = bank_mod.ListBank()
    key_bank = bank_mod.ListBank()
    knn_scores, losses = [], []
    for epoch in range(epochs):
        labels_seen = []
        for step in range(steps):
            x = torch.randn(bs, 10)
            labels = (x[:, 0] > 0).long()
            z1, z2 = encoder(augment(x)), encoder(augment(x))
            loss = info_nce(z1, z2, raw_queue.negatives())
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                k = momentum_enc(x)
            raw_queue.enqueue(z2)  # expect: TEN501
            safe_queue.enqueue(z2)  # ok
            key_queue.enqueue(k)  # ok
            epoch_bank.add(z1)  # expect: TEN501
            key_bank.add(k)  # ok
            labels_seen.append(labels)  # ok
            losses.append(loss.item())  # ok
        feats = epoch_bank.as_tensor()
        knn_scores.append(knn_accuracy(feats.detach(), torch.cat(labels_seen)))  # ok
        epoch_bank.clear()
        key_bank.clear()
    print(f"loss {losses[-1]:.3f} knn {knn_scores}")


if __name__ == "__main__":
    main()
