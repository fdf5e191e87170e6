"""Closure-based trackers and a nested accumulate helper in a ranking-model loop."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_tracker(transform=None):
    store = []

    def track(value):
        store.append(transform(value) if transform is not None else value)
        return len(store)

    track.store = store
    return track


def detach_clone(t):
    return t.detach().clone()


class PairwiseRanker(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, a, b):
        return self.score(a).squeeze(-1) - self.score(b).squeeze(-1)


def train(steps=10, bs=20, wd=1e-3):
    torch.manual_seed(0)
    w = torch.randn(10)
    items = torch.randn(200, 10)
    model = PairwiseRanker()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)

    track_loss = make_tracker()
    track_loss_float = make_tracker(transform=float)
    track_margin = make_tracker(transform=functools.partial(detach_clone))
    totals = {}

    def _accumulate(bucket, key, val):
        bucket[key] = bucket.get(key, 0) + val

    for step in range(steps):
        i, j = torch.randint(0, 200, (bs,)), torch.randint(0, 200, (bs,))
        target = ((items[i] @ w) > (items[j] @ w)).float()
        margin = model(items[i], items[j])
        reg = wd * sum(p.norm() for p in model.parameters())
        loss = F.binary_cross_entropy_with_logits(margin, target) + reg
        opt.zero_grad()
        loss.backward()
        opt.step()

        track_loss(loss)  # expect: TEN501
        track_loss_float(loss)  # ok
        track_margin(margin)  # ok
        _accumulate(totals, "reg", reg)  # expect: TEN501
        _accumulate(totals, "n", items[i].size(0))  # ok

    print("last losses", [round(v, 4) for v in track_loss_float.store[-3:]])
    print("tracked", len(track_loss.store), "margins", torch.cat(track_margin.store).shape)
    print("mean reg", totals["reg"].item() / steps, "pairs", totals["n"])


if __name__ == "__main__":
    train()
