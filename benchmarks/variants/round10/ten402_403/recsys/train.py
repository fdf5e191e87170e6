"""Train a sequential recommender with NDCG@k early selection."""
import math

import torch
import torch.nn.functional as F

from .checkpointing import capture_weights, clone_weights, load_weights


@torch.no_grad()
def evaluate_ndcg(model, loader, k=10, device="cuda"):
    model.eval()
    total, n = 0.0, 0
    for inputs, targets, mask in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        scores = model(inputs)[:, -1, :]  # (B, n_items)
        topk = scores.topk(k, dim=-1).indices
        hit = (topk == targets[:, -1:]).float()
        ranks = torch.arange(2, k + 2, device=device, dtype=torch.float)
        total += (hit / torch.log2(ranks)).sum().item()
        n += inputs.shape[0]
    return total / max(n, 1)


def train_ranker(model, train_loader, val_loader, epochs=200, lr=1e-3, device="cuda", k=10):
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98))
    start = clone_weights(model)  # ok
    best_ndcg, best = -1.0, None
    restarts = 0

    for epoch in range(epochs):
        model.train()
        running = 0.0
        for inputs, targets, mask in train_loader:
            inputs, targets, mask = inputs.to(device), targets.to(device), mask.to(device)
            logits = model(inputs)
            loss = F.cross_entropy(logits[mask], targets[mask])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()

        if not math.isfinite(running):
            restarts += 1
            if restarts > 3:
                raise RuntimeError("training diverged repeatedly")
            load_weights(model, start)
            for g in opt.param_groups:
                g["lr"] *= 0.5
            opt.state.clear()
            continue

        ndcg = evaluate_ndcg(model, val_loader, k=k, device=device)
        print(f"epoch {epoch}: loss={running / len(train_loader):.4f} ndcg@{k}={ndcg:.4f}")
        if ndcg > best_ndcg:
            best_ndcg = ndcg
            best = capture_weights(model)  # expect: TEN402

    if best is not None:
        load_weights(model, best)
    return model, best_ndcg
