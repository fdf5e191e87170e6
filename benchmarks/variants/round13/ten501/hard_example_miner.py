"""Online hard-example mining with per-sample losses kept between epochs."""
import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F


class HardExampleMiner:
    def __init__(self, n):
        self.last_loss = {}
        self.loss_table = torch.zeros(n)

    def record(self, idx, per_sample):
        for i, l in zip(idx.tolist(), per_sample):
            self.last_loss[i] = l

    def sampling_weights(self, floor=0.1):
        w = self.loss_table.clone()
        return (w / (w.sum() + 1e-12)).clamp_min(floor / len(w))


class IndexedData:
    def __init__(self, n=48, d=8, n_cls=3):
        self.x = torch.randn(n, d)
        self.y = torch.randint(0, n_cls, (n,))

    def __len__(self):
        return len(self.y)

    def batch(self, idx):
        return self.x[idx], self.y[idx]


def train(epochs=2, bs=12):
    torch.manual_seed(0)
    data = IndexedData()
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    miner = HardExampleMiner(len(data))
    hard_heap, confidences, wrong_ids, topk_store = [], [], [], []
    for epoch in range(epochs):
        if epoch == 0:
            order = torch.randperm(len(data))
        else:
            order = torch.multinomial(miner.sampling_weights(), len(data), replacement=True)
        for start in range(0, len(data), bs):
            idx = order[start:start + bs]
            x, y = data.batch(idx)
            logits = model(x)
            per = F.cross_entropy(logits, y, reduction="none")
            loss = per.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

            miner.record(idx, per)  # expect: TEN501
            miner.loss_table[idx] = per.detach()  # ok
            for i, l in zip(idx.tolist(), per.tolist()):
                heapq.heappush(hard_heap, (-l, i))  # ok
            confidences.extend(F.softmax(logits, -1).max(-1).values)  # expect: TEN501
            wrong_ids.extend(idx[logits.argmax(-1) != y].tolist())  # ok
            topk_store.append(per.topk(2).values)  # expect: TEN501
    hardest = [heapq.heappop(hard_heap)[1] for _ in range(5)]
    return hardest, len(wrong_ids)


if __name__ == "__main__":
    print(train())
