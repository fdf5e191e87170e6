"""Module-level logs and feature caches used from helper functions."""
import torch
import torch.nn as nn

torch.manual_seed(0)

LOSS_LOG = []
LOSS_LOG_F = []
_FEATURE_CACHE = {}
_FEATURE_CACHE_OK = {}
BEST = {"loss": float("inf"), "step": -1}
TOTAL = 0.0


def log_loss(value):
    LOSS_LOG.append(value)


def log_loss_f(value):
    LOSS_LOG_F.append(value)


def cached_features(encoder, idx, x):
    feats = encoder(x)
    _FEATURE_CACHE[idx] = feats  # expect: TEN501
    _FEATURE_CACHE_OK[idx] = feats.detach()  # ok
    return feats


def bump_total(loss):
    global TOTAL
    TOTAL = TOTAL + loss  # expect: TEN501


encoder = nn.Sequential(nn.Linear(12, 6), nn.Tanh())
head = nn.Linear(6, 1)
opt = torch.optim.SGD(list(encoder.parameters()) + list(head.parameters()), lr=0.05)
data = [torch.randn(10, 12) for _ in range(7)]
for epoch in range(2):
    for idx, x in enumerate(data):
        f = cached_features(encoder, idx, x)
        loss = (head(f) - x[:, :1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log_loss(loss)  # expect: TEN501
        log_loss_f(loss.item())  # ok
        bump_total(loss)
        if loss.item() < BEST["loss"]:
            BEST.update(loss=loss.item(), step=idx)  # ok
print(len(LOSS_LOG), round(sum(LOSS_LOG_F) / len(LOSS_LOG_F), 4), round(float(TOTAL), 4), BEST, len(_FEATURE_CACHE))
