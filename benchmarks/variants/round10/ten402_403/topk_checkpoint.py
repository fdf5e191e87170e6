"""Link prediction with a GraphSAGE encoder; keeps the k best checkpoints by validation AUC."""
import heapq
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score


class SAGELayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.self_lin = nn.Linear(in_dim, out_dim)
        self.neigh_lin = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.bincount(dst, minlength=x.shape[0]).clamp(min=1).unsqueeze(-1)
        return self.self_lin(x) + self.neigh_lin(agg / deg)


class SAGEEncoder(nn.Module):
    def __init__(self, in_dim, hid, out_dim):
        super().__init__()
        self.l1 = SAGELayer(in_dim, hid)
        self.l2 = SAGELayer(hid, out_dim)

    def forward(self, x, edge_index):
        return self.l2(F.relu(self.l1(x, edge_index)), edge_index)


class TopKCheckpointer:
    """Keeps the `k` highest-scoring model states seen so far."""

    def __init__(self, model, k=3, out_dir="checkpoints"):
        self.model = model
        self.k = k
        self.out_dir = out_dir
        self._heap = []
        os.makedirs(out_dir, exist_ok=True)

    def update(self, score, step):
        entry = (score, step, self.model.state_dict())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif score > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def finalize(self):
        ranked = sorted(self._heap, key=lambda e: e[0], reverse=True)
        for rank, (score, step, state) in enumerate(ranked):
            torch.save({"step": step, "auc": score, "model": state},
                       os.path.join(self.out_dir, f"top{rank + 1}.pt"))
        return [(s, st) for s, st, _ in ranked]


def decode(z, pairs):
    return (z[pairs[0]] * z[pairs[1]]).sum(-1)


@torch.no_grad()
def eval_auc(model, x, edge_index, pos, neg):
    model.eval()
    z = model(x, edge_index)
    scores = torch.cat([decode(z, pos), decode(z, neg)]).sigmoid().cpu()
    labels = torch.cat([torch.ones(pos.shape[1]), torch.zeros(neg.shape[1])])
    return roc_auc_score(labels.numpy(), scores.numpy())


def train_link_pred(split, epochs=300, eval_every=5, device="cuda"):
    x = split.x.to(device)
    train_ei = split.train_pos.to(device)
    model = SAGEEncoder(x.shape[1], 256, 128).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    keeper = TopKCheckpointer(model, k=3)

    for epoch in range(1, epochs + 1):
        model.train()
        z = model(x, train_ei)
        neg = torch.randint(0, x.shape[0], train_ei.shape, device=device)
        pos_logit, neg_logit = decode(z, train_ei), decode(z, neg)
        loss = F.binary_cross_entropy_with_logits(pos_logit, torch.ones_like(pos_logit)) + \
            F.binary_cross_entropy_with_logits(neg_logit, torch.zeros_like(neg_logit))
        opt.zero_grad()
        loss.backward()
        opt.step()

        if epoch % eval_every == 0:
            auc = eval_auc(model, x, train_ei, split.val_pos.to(device), split.val_neg.to(device))
            keeper.update(auc, epoch)

    torch.save(model.state_dict(), os.path.join(keeper.out_dir, "last.pt"))  # ok
    return keeper.finalize()
