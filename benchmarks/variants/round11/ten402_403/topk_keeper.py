"""Keep the k best checkpoints in memory during a segmentation run, then ensemble them."""
import heapq
import io
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKKeeper:
    def __init__(self, k=3):
        self.k = k
        self._heap = []
        self._tie = itertools.count()

    def offer(self, score: float, model: nn.Module):
        sd = model.state_dict()
        entry = (score, next(self._tie), sd.copy())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif score > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def states(self):
        return [e[2] for e in sorted(self._heap, reverse=True)]


def dice(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return (2 * inter + eps) / (pred.sum() + target.sum() + eps)


def segnet():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 1, 1),
    )


def main():
    model = segnet()
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    keeper = TopKKeeper(k=3)
    val_x = torch.randn(8, 1, 64, 64)
    val_y = (val_x > 0.5).float()
    for epoch in range(20):
        x = torch.randn(8, 1, 64, 64)
        y = (x > 0.5).float()
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            score = dice((model(val_x) > 0).float(), val_y).item()
        keeper.offer(score, model)
        blob = io.BytesIO()
        torch.save(model.state_dict(), blob)  # ok
        print(epoch, round(score, 4), blob.getbuffer().nbytes)

    members = []
    for state in keeper.states():
        m = segnet()
        m.load_state_dict(state)
        members.append(m.eval())
    with torch.no_grad():
        ens = torch.stack([torch.sigmoid(m(val_x)) for m in members]).mean(0)
    print("ensemble dice", dice((ens > 0.5).float(), val_y).item())


if __name__ == "__main__":
    main()
