"""Keep the k best checkpoints in a heap and average them at the end."""
import heapq
import io
import itertools

import torch
import torch.nn as nn

torch.manual_seed(0)


class TopKKeeper:
    def __init__(self, k):
        self.k = k
        self.heap = []
        self.counter = itertools.count()

    def offer(self, score, model):
        heapq.heappush(self.heap, (score, next(self.counter), model.state_dict()))  # expect: TEN402
        if len(self.heap) > self.k:
            heapq.heappop(self.heap)

    def averaged(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


class SerializedTopKKeeper(TopKKeeper):
    def offer(self, score, model):
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        heapq.heappush(self.heap, (score, next(self.counter), buf.getvalue()))
        if len(self.heap) > self.k:
            heapq.heappop(self.heap)

    def averaged(self):
        states = [torch.load(io.BytesIO(b)) for _, _, b in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


def train(keeper):
    torch.manual_seed(1)
    model = nn.Linear(6, 2)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    x, y = torch.randn(40, 6), torch.randn(40, 2)
    scores = [0.1, 0.9, 0.3, 0.8, 0.2, 0.7]
    for s in scores:
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        keeper.offer(s, model)
    avg = keeper.averaged()
    return avg["weight"].sum().item(), model.weight.sum().item()


print("in-memory keeper avg / last: %.6f / %.6f" % train(TopKKeeper(3)))
print("serialized keeper avg / last: %.6f / %.6f" % train(SerializedTopKKeeper(3)))
