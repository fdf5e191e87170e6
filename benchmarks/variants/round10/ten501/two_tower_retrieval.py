"""Two-tower retrieval model: in-batch softmax training and Recall@K / NDCG@K evaluation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, num_ids, num_feats, dim=64, out_dim=64):
        super().__init__()
        self.id_emb = nn.Embedding(num_ids, dim)
        self.feat_emb = nn.EmbeddingBag(num_feats, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 256), nn.ReLU(), nn.Linear(256, out_dim))

    def forward(self, ids, feat_idx, feat_offsets):
        x = torch.cat([self.id_emb(ids), self.feat_emb(feat_idx, feat_offsets)], dim=-1)
        return self.mlp(x)


def in_batch_softmax_loss(u, v, item_logq, tau):
    logits = (F.normalize(u, dim=-1) @ F.normalize(v, dim=-1).T) / tau
    logits = logits - item_logq.unsqueeze(0)
    labels = torch.arange(u.size(0), device=u.device)
    return F.cross_entropy(logits, labels)


def train(user_tower, item_tower, loader, epochs=5, lr=1e-3, tau_start=0.2, tau_end=0.05, device="cuda"):
    params = list(user_tower.parameters()) + list(item_tower.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    total_steps = epochs * len(loader)
    tau_schedule = []
    step = 0
    for epoch in range(epochs):
        running = torch.zeros((), device=device)
        for batch in loader:
            tau = tau_end + 0.5 * (tau_start - tau_end) * (1 + math.cos(math.pi * step / total_steps))
            tau_schedule.append(tau)  # ok
            u = user_tower(batch["user_id"].to(device), batch["user_feats"].to(device),
                           batch["user_offsets"].to(device))
            v = item_tower(batch["item_id"].to(device), batch["item_feats"].to(device),
                           batch["item_offsets"].to(device))
            loss = in_batch_softmax_loss(u, v, batch["item_logq"].to(device), tau)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.detach()  # ok
            step += 1
        print(f"epoch {epoch}: loss {running.item() / len(loader):.4f} tau {tau_schedule[-1]:.3f}")
    return tau_schedule


@torch.inference_mode()
def build_item_index(item_tower, item_loader, device="cuda"):
    item_tower.eval()
    embs, ids = [], []
    for batch in item_loader:
        e = item_tower(batch["item_id"].to(device), batch["item_feats"].to(device),
                       batch["item_offsets"].to(device))
        embs.append(F.normalize(e, dim=-1))  # ok
        ids.append(batch["item_id"].to(device))  # ok
    item_tower.train()
    return torch.cat(embs), torch.cat(ids)


def recall_ndcg_at_k(user_tower, user_loader, item_embs, item_ids, k=50, device="cuda"):
    user_tower.eval()
    hits, total = 0, 0
    ndcg_sum = 0.0
    with torch.no_grad():
        for batch in user_loader:
            u = user_tower(batch["user_id"].to(device), batch["user_feats"].to(device),
                           batch["user_offsets"].to(device))
            scores = F.normalize(u, dim=-1) @ item_embs.T
            topk = scores.topk(k, dim=1).indices
            rec = item_ids[topk]
            hit = rec == batch["target_item"].to(device).unsqueeze(1)
            found = hit.any(dim=1)
            hits += found.sum().item()  # ok
            total += hit.size(0)
            rank = hit.float().argmax(dim=1)
            ndcg_sum += (found.float() / torch.log2(rank.float() + 2.0)).sum()  # ok
    user_tower.train()
    return hits / max(total, 1), float(ndcg_sum) / max(total, 1)
