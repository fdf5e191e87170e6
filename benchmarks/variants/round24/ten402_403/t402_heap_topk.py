"""Keep the k best checkpoints in a heap and average them at the end (model soup)."""
import heapq
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class TopKCheckpoints:
    def __init__(self, k=3):
        self.k = k
        self.heap = []
        self.blob_heap = []

    def offer(self, score, epoch, model):
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, (score, epoch, model.state_dict()))  # expect: TEN402
        elif score > self.heap[0][0]:
            heapq.heapreplace(self.heap, (score, epoch, model.state_dict()))  # expect: TEN402

    def offer_serialized(self, score, epoch, model):
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        item = (score, epoch, buf.getvalue())
        if len(self.blob_heap) < self.k:
            heapq.heappush(self.blob_heap, item)  # ok
        elif score > self.blob_heap[0][0]:
            heapq.heapreplace(self.blob_heap, item)  # ok

    def soup(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}

    def soup_serialized(self):
        states = [torch.load(io.BytesIO(b)) for _, _, b in self.blob_heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


if __name__ == "__main__":
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=1.5, momentum=0.9)
    w = torch.randn(4)
    x = torch.randn(30, 4)
    y = (x @ w > 0).long()
    xv = torch.randn(30, 4)
    yv = (xv @ w + 0.8 * torch.randn(30) > 0).long()
    topk = TopKCheckpoints()
    for epoch in range(10):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            score = -nn.functional.cross_entropy(model(xv), yv).item()
        topk.offer(score, epoch, model)
        topk.offer_serialized(score, epoch, model)
    print("kept epochs", sorted(e for _, e, _ in topk.heap))
    for name, sd in (("live", topk.soup()), ("serialized", topk.soup_serialized())):
        model.load_state_dict(sd)
        with torch.no_grad():
            print(name, f"{nn.functional.cross_entropy(model(xv), yv).item():.6f}")
