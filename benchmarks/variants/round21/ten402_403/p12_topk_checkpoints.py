"""Keep the k best checkpoints in memory and average them at the end (checkpoint averaging),
plus a rolling window of the last N states for "average the last N" evaluation."""
import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TopKAverager:
    def __init__(self, k=3, clone=False):
        self.k = k
        self.clone = clone
        self.heap = []  # (-val_loss, counter, state): the worst kept checkpoint is on top
        self.counter = 0

    def update(self, model, val_loss):
        self.counter += 1
        if self.clone:
            entry = (-val_loss, self.counter, {k: v.detach().clone() for k, v in model.state_dict().items()})  # ok
        else:
            entry = (-val_loss, self.counter, model.state_dict())  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        elif entry[0] > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)

    def averaged(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


class LastN:
    def __init__(self, n=4, clone=False):
        self.n, self.clone, self.states = n, clone, []

    def update(self, model):
        if self.clone:
            self.states.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
        else:
            self.states.append(model.state_dict())  # expect: TEN402
        self.states = self.states[-self.n:]

    def averaged(self):
        return {k: torch.stack([s[k] for s in self.states]).mean(0) for k in self.states[0]}


def val_loss(model, data):
    with torch.no_grad():
        return F.mse_loss(model(data[0]), data[1]).item()


if __name__ == "__main__":
    g = torch.Generator().manual_seed(11)
    w = torch.randn(10, 1, generator=g)
    xt = torch.randn(32, 10, generator=g)
    train = (xt, xt @ w + 0.8 * torch.randn(32, 1, generator=g))
    xv = torch.randn(256, 10, generator=g)
    val = (xv, xv @ w)
    for clone in (False, True):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        topk, lastn = TopKAverager(clone=clone), LastN(clone=clone)
        for epoch in range(30):
            opt.zero_grad()
            F.mse_loss(model(train[0]), train[1]).backward()
            opt.step()
            topk.update(model, val_loss(model, val))
            lastn.update(model)
        final = val_loss(model, val)
        kept = sorted(-v for v, _, _ in topk.heap)
        avg_model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
        avg_model.load_state_dict(topk.averaged())
        top_avg = val_loss(avg_model, val)
        avg_model.load_state_dict(lastn.averaged())
        last_avg = val_loss(avg_model, val)
        print(f"clone={clone}: final_val={final:.4f} topk_vals={[round(v, 4) for v in kept]} "
              f"topk_avg_val={top_avg:.4f} lastN_avg_val={last_avg:.4f}")
