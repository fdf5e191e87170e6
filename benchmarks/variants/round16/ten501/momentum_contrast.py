"""Momentum-encoder contrastive learning with a ring buffer of negative keys."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class KeyRing(nn.Module):
    """Fixed-size FIFO of key embeddings, stored as a buffer."""

    def __init__(self, dim, size):
        super().__init__()
        self.size = size
        self.register_buffer("keys", F.normalize(torch.randn(size, dim), dim=1))
        self.head = 0

    @torch.no_grad()
    def push(self, k):
        n = k.shape[0]
        self.keys[self.head:self.head + n] = k
        self.head = (self.head + n) % self.size


class MomentumContrast(nn.Module):
    def __init__(self, encoder, dim=16, ring=128, momentum=0.99, temp=0.2):
        super().__init__()
        self.online = encoder
        self.target = copy.deepcopy(encoder).requires_grad_(False)
        self.ring = KeyRing(dim, ring)
        self.momentum, self.temp = momentum, temp

    def sync_target(self):
        with torch.no_grad():
            for po, pt in zip(self.online.parameters(), self.target.parameters()):
                pt.lerp_(po, 1.0 - self.momentum)  # ok

    def forward(self, view_a, view_b):
        q = F.normalize(self.online(view_a), dim=1)
        self.sync_target()
        with torch.no_grad():
            k = F.normalize(self.target(view_b), dim=1)
        pos = (q * k).sum(1, keepdim=True)
        neg = q @ self.ring.keys.clone().t()
        logits = torch.cat([pos, neg], 1) / self.temp
        self.ring.push(k)  # ok
        return logits, q


class EmbeddingArchive:
    """Collects embeddings and labels seen during training for a later t-SNE / kNN probe."""

    def __init__(self, dim):
        self.emb = torch.empty(0, dim)
        self.lab = torch.empty(0, dtype=torch.long)

    def add(self, emb, lab):
        self.emb = torch.cat([self.emb, emb])
        self.lab = torch.cat([self.lab, lab])

    def __len__(self):
        return len(self.emb)


def jitter(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    model = MomentumContrast(nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 16)))
    opt = torch.optim.SGD(model.online.parameters(), lr=0.05, momentum=0.9)
    data = torch.randn(256, 12)
    cls = (data[:, 0] > 0).long()
    archive = EmbeddingArchive(16)
    window = torch.empty(0, 16)
    probe = []

    for epoch in range(2):
        for s in range(0, 256, 32):
            x, y = data[s:s + 32], cls[s:s + 32]
            logits, q = model(jitter(x), jitter(x))
            loss = F.cross_entropy(logits, torch.zeros(len(x), dtype=torch.long))
            opt.zero_grad()
            loss.backward()
            opt.step()

            archive.add(q, y)  # expect: TEN501
            window = torch.cat([window, q], dim=0)[-64:]  # expect: TEN501
            with torch.no_grad():
                probe.append(F.normalize(model.target(x), dim=1))  # ok
        print(f"epoch {epoch}: loss {loss.item():.4f}, archived {len(archive)}")


if __name__ == "__main__":
    main()
