"""Embeddings pushed into queue.Queue / heapq / deque memories during contrastive training."""
import heapq
import queue
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

encoder = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)

emb_queue = queue.Queue()
emb_queue_detached = queue.Queue()
hard_negatives = []
hard_negative_scores = []
memory = deque()
recent = deque(maxlen=2)
for step in range(4):
    x = torch.randn(5, 6)
    z1 = F.normalize(encoder(x + 0.05 * torch.randn_like(x)), dim=1)
    z2 = F.normalize(encoder(x + 0.05 * torch.randn_like(x)), dim=1)
    logits = z1 @ z2.t() / 0.2
    loss = F.cross_entropy(logits, torch.arange(5))
    opt.zero_grad()
    loss.backward()
    opt.step()

    emb = z1.mean(0)
    emb_queue.put(emb)  # expect: TEN501
    emb_queue_detached.put(emb.detach())  # ok
    heapq.heappush(hard_negatives, (loss.item(), step, z2))  # expect: TEN501
    heapq.heappush(hard_negative_scores, (loss.item(), step))  # ok
    memory.append(z1.detach())  # ok
    recent.append(z1)  # either

print("queue sizes:", emb_queue.qsize(), emb_queue_detached.qsize(), "top:", hard_negative_scores[0][1], len(memory))
