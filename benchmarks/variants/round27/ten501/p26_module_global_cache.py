"""Module-level caches and globals filled from inside helper functions."""
import torch
import torch.nn as nn

torch.manual_seed(0)

_EMB_CACHE = {}
_EMB_CACHE_SAFE = {}
STEP_LOSSES = []

emb = nn.Embedding(20, 6)
head = nn.Linear(6, 1)
opt = torch.optim.Adam(list(emb.parameters()) + list(head.parameters()), lr=1e-2)


def cached_embedding(i):
    if i not in _EMB_CACHE:
        _EMB_CACHE[i] = emb(torch.tensor(i))  # expect: TEN501
    return _EMB_CACHE[i]


def cached_embedding_safe(i):
    if i not in _EMB_CACHE_SAFE:
        with torch.no_grad():
            _EMB_CACHE_SAFE[i] = emb(torch.tensor(i))  # ok
    return _EMB_CACHE_SAFE[i]


def remember(loss):
    STEP_LOSSES.append(loss)


for step in range(8):
    ids = torch.randint(0, 20, (6,))
    for i in ids.tolist():
        cached_embedding(i)
        cached_embedding_safe(i)
    pred = head(emb(ids)).squeeze(1)
    loss = (pred - ids.float() / 20).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    remember(loss)  # expect: TEN501

print(len(_EMB_CACHE), len(_EMB_CACHE_SAFE), round(STEP_LOSSES[-1].item(), 4))
