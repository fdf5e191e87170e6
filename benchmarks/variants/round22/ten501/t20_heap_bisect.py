"""Tracks the hardest batches with heapq / bisect for later inspection."""
import bisect
import heapq
from heapq import heappush

import torch
from torch import nn


def hardest_batches(model, data, epochs=2, k=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    heap, heap_f, top_k = [], [], []
    sorted_losses, sorted_f = [], []
    step = 0
    for _ in range(epochs):
        for x, y in data:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            heapq.heappush(heap, (-loss, step))  # expect: TEN501
            heappush(heap_f, (-loss.item(), step))  # ok
            heapq.heappush(top_k, (loss, step))  # either: TEN501
            if len(top_k) > k:
                heapq.heappop(top_k)
            bisect.insort(sorted_losses, loss)  # expect: TEN501
            bisect.insort(sorted_f, float(loss))  # ok
            step += 1
    return heap, heap_f, top_k, sorted_losses, sorted_f


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [(torch.randn(6, 4), torch.randint(0, 3, (6,))) for _ in range(5)]
    h, hf, tk, sl, sf = hardest_batches(nn.Linear(4, 3), data)
    print(len(h), [s for _, s in heapq.nsmallest(3, hf)], len(tk), len(sl), round(sf[-1], 4))
