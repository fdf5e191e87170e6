"""Feature containers shared by the contrastive training scripts."""
import torch
import torch.nn.functional as F


class FeatureQueue:
    """FIFO of the most recent `size` embeddings, newest first."""

    def __init__(self, dim, size):
        self.size = size
        self.buffer = torch.zeros(0, dim)

    def enqueue(self, feats):
        self.buffer = torch.cat([feats, self.buffer], 0)[: self.size]

    def negatives(self):
        return self.buffer.detach()

    def __len__(self):
        return self.buffer.size(0)


class DetachingQueue(FeatureQueue):
    """Same FIFO, but never keeps autograd history of what it stores."""

    def enqueue(self, feats):
        super().enqueue(feats.detach())


class ListBank:
    """Collects embeddings for an epoch-level kNN monitor."""

    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)

    def as_tensor(self):
        return torch.cat(self.items, 0) if self.items else None

    def clear(self):
        self.items.clear()


def info_nce(q, pos, negs=None, t=0.2):
    q, pos = F.normalize(q, dim=1), F.normalize(pos, dim=1)
    logits = q @ pos.t()
    if negs is not None and len(negs):
        logits = torch.cat([logits, q @ F.normalize(negs, dim=1).t()], 1)
    labels = torch.arange(q.size(0))
    return F.cross_entropy(logits / t, labels)
