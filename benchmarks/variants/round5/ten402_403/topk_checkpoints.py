"""Keep the k best checkpoints in memory (min-heap on the score) and
average them at the end, checkpoint-averaging style."""
import copy
import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKCheckpoints:
    def __init__(self, k=3):
        self.k = k
        self.heap = []  # (score, step, state_dict); smallest score on top

    def push(self, model, score, step):
        entry = (score, step, copy.copy(model.state_dict()))  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        elif score > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)

    def best(self):
        return max(self.heap)[2]

    def averaged(self):
        states = [sd for _, _, sd in self.heap]
        return {k: torch.stack([sd[k].float() for sd in states]).mean(0) for k in states[0]}

    def steps(self):
        return sorted(step for _, step, _ in self.heap)


def train(steps=60, eval_every=5, seed=2):
    torch.manual_seed(seed)
    x, y = torch.randn(128, 10), torch.randint(0, 2, (128,))
    xv, yv = torch.randn(64, 10), torch.randint(0, 2, (64,))
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    keeper = TopKCheckpoints(k=3)
    for step in range(1, steps + 1):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        if step % eval_every == 0:
            with torch.no_grad():
                acc = (model(xv).argmax(1) == yv).float().mean().item()
            keeper.push(model, acc, step)
    return model, keeper, (xv, yv)


if __name__ == "__main__":
    model, keeper, (xv, yv) = train()
    final = copy.deepcopy(model.state_dict())  # ok
    model.load_state_dict(keeper.best())
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    print("kept steps", keeper.steps(), "best score", max(keeper.heap)[0], "acc of restored best", acc)
    print("best == final:", all(torch.equal(final[k], model.state_dict()[k]) for k in final))
