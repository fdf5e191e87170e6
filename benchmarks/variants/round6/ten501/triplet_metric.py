"""Metric learning with batch-hard triplet loss and recall@k evaluation."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingNet(nn.Module):
    def __init__(self, in_dim=32, emb_dim=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, emb_dim))

    def forward(self, x):
        return F.normalize(self.trunk(x), dim=-1)


def pairwise_distances(emb):
    dot = emb @ emb.t()
    sq = dot.diag()
    d = sq.unsqueeze(0) - 2.0 * dot + sq.unsqueeze(1)
    return d.clamp_min(0.0).add(1e-12).sqrt()


def batch_hard_triplet_loss(labels, embeddings, margin=0.2):
    dist = pairwise_distances(embeddings)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(labels.size(0), dtype=torch.bool)
    pos_mask = same & ~eye
    hardest_pos = (dist * pos_mask.float()).max(1, keepdim=True).values
    max_an = dist.max(1, keepdim=True).values
    hardest_neg = (dist + max_an * same.float()).min(1, keepdim=True).values
    loss = F.relu(hardest_pos - hardest_neg + margin).mean()
    return loss, hardest_pos.mean(), hardest_neg.mean()


def extract_embeddings(model, loader):
    model.eval()
    embs, labels = [], []
    for x, y in loader:
        embs.append(model(x))  # expect: TEN501
        labels.append(y)
    model.train()
    return torch.cat(embs), torch.cat(labels)


@torch.no_grad()
def extract_embeddings_eval(model, loader):
    model.eval()
    feats, labels = [], []
    for x, y in loader:
        feats.append(model(x))  # ok
        labels.append(y)
    model.train()
    return torch.cat(feats), torch.cat(labels)


def recall_at_k(emb, labels, k=1):
    dist = pairwise_distances(emb)
    dist.fill_diagonal_(float("inf"))
    knn = dist.topk(k, largest=False).indices
    hit = (labels[knn] == labels.unsqueeze(1)).any(1)
    return hit.float().mean().item()


def make_loader(n_classes=6, per_class=8, dim=32, batch=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(n_classes, dim, generator=g) * 2
    ys = torch.arange(n_classes).repeat_interleave(per_class)
    xs = centers[ys] + torch.randn(ys.numel(), dim, generator=g)
    perm = torch.randperm(ys.numel(), generator=g)
    xs, ys = xs[perm], ys[perm]
    return [(xs[i:i + batch], ys[i:i + batch]) for i in range(0, ys.numel(), batch)]


def main(epochs=4):
    torch.manual_seed(0)
    model = EmbeddingNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = make_loader(seed=0)
    val_loader = make_loader(seed=1)
    dist_stats = defaultdict(list)
    for epoch in range(epochs):
        epoch_loss, n = 0.0, 0
        for x, y in train_loader:
            emb = model(x)
            loss, d_ap, d_an = batch_hard_triplet_loss(y, emb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.item() * x.size(0)
            n += x.size(0)
            dist_stats["ap"].append(d_ap)  # expect: TEN501
            dist_stats["an"].append(d_an.item())  # ok
        val_emb, val_y = extract_embeddings(model, val_loader)
        r1_fast = recall_at_k(*extract_embeddings_eval(model, val_loader))
        print(f"epoch {epoch}: loss {epoch_loss / n:.4f} R@1 {recall_at_k(val_emb, val_y):.3f} "
              f"(eval-mode R@1 {r1_fast:.3f}) d_an {dist_stats['an'][-1]:.3f}")


if __name__ == "__main__":
    main()
