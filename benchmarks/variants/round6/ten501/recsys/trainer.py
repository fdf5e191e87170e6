"""python -m recsys.trainer"""
import torch

from .logging_utils import last_losses, log_scalar, log_step, scalar_mean
from .model import TwoTower


def interactions(n_users=50, n_items=80, n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, n_users, (n,), generator=g)
    items = (users * 7 + torch.randint(0, 3, (n,), generator=g)) % n_items
    return users, items


def train(model, users, items, epochs=3, bs=32, lr=5e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    epoch_scores = []
    for epoch in range(epochs):
        perm = torch.randperm(users.size(0))
        users, items = users[perm], items[perm]
        for start in range(0, users.size(0), bs):
            u, i = users[start:start + bs], items[start:start + bs]
            out = model(u, i)
            opt.zero_grad()
            out.loss.backward()
            opt.step()
            log_step(out.loss)  # expect: TEN501
            log_scalar("reg", out.reg)  # ok
            log_scalar("temperature", out.temperature)
            if start == 0:
                epoch_scores.append(out.scores)  # expect: TEN501
        print(f"epoch {epoch}: loss(last10) {last_losses():.4f} reg {scalar_mean('reg'):.6f}")
    return epoch_scores


def recall_at_k(model, users, items, k=5):
    with torch.no_grad():
        u = model.user_tower(users)
        v = model.item_tower(torch.arange(model.item_tower.emb.num_embeddings))
        topk = (u @ v.t()).topk(k, dim=1).indices
    return (topk == items.unsqueeze(1)).any(1).float().mean().item()


def main():
    torch.manual_seed(0)
    users, items = interactions()
    model = TwoTower(50, 80)
    snapshots = train(model, users, items)
    print(f"recall@5 {recall_at_k(model, *interactions(seed=1)):.3f} snapshots {len(snapshots)}")


if __name__ == "__main__":
    main()
